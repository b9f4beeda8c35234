//! The report wing: the static site `cityvibe report` writes, its figures,
//! its pages as a browser draws them, and the typed JSON shapes it reads.

mod machine;
pub(crate) mod pages;
mod readers;
mod render;
mod shapes;
