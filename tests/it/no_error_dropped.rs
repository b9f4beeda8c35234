//! Issue 22, "no error dropped quietly", through the binary against the
//! recording server: a body that cannot be read to its end is told by kind
//! (a connection closed or reset early, an encoding that does not decode), not as
//! one undifferentiated failure.
use crate::common;
use crate::surface_output::MADRID_ONLY;

use common::server::{Reply, Server};
use common::{cityvibe, workdir};

/// Run madrid against a server answering every request with `reply`; the
/// run's stderr and its exit code.
fn run_against(reply: Reply) -> (Option<i32>, String) {
    let server = Server::start(move |_, _| reply.clone());
    let dir = workdir(MADRID_ONLY);
    let out = cityvibe(dir.path(), &["--mirror", &server.url(), "run", "--quiet", "--no-translate"]);
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

// Issue 22: a body shorter than its Content-Length (the server closed the
// connection early) is said to be cut, not a bare "reading the body: …".
#[test]
fn issue22_body_cut_short_is_told_by_kind() {
    let (code, err) = run_against(Reply::ok(b"[{\"id\": 1".to_vec()).header("Content-Length", "100000"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the connection was closed or reset before the body's end"), "{err}");
}

// Issue 22: a connection reset mid-body is said to be cut too (ureq reads
// a reset while the body is read as the connection's end).
#[test]
fn issue22_body_reset_is_told_by_kind() {
    let (code, err) = run_against(Reply { reset: true, ..Reply::ok(b"[{\"id\": 1".to_vec()).header("Content-Length", "100000") });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the connection was closed or reset before the body's end"), "{err}");
}

// Issue 22: a gzip body that does not decompress is said to be an encoding
// that could not be decoded.
#[test]
fn issue22_body_bad_gzip_is_told_by_kind() {
    let (code, err) = run_against(Reply::ok(b"this is not gzip at all".to_vec()).header("Content-Encoding", "gzip"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reading the body: the body's encoding could not be decoded"), "{err}");
}
