//! Keyword mapping from a publisher's category label (in any of the feeds'
//! languages) to CityVibe's taxonomy. It lives in `parse`, beside the other
//! readings of feed text, so the model does not depend on the parsers.
//! Not for display labels: those are the model's (`Category::label`).

use crate::model::Category;
use crate::parse::text::fold;

impl Category {
    /// Map a publisher's label (any of the feeds' languages) to the taxonomy
    /// by keywords. Adapters call this on their own category strings.
    pub fn from_label(label: &str) -> Option<Category> {
        let l = fold(label);
        let has = |words: &[&str]| words.iter().any(|w| l.contains(w));
        let cat = if has(&["infantil", "familia", "ninos", "infants", "children", "familiar", "familie"]) {
            Category::Family
        } else if has(&["music", "musica", "concierto", "concert", "opera", "zarzuela", "jazz", "flamenco", "coral"]) {
            Category::Music
        } else if has(&["danza", "dansa", "dance", "ballet", "baile"]) {
            Category::Dance
        } else if has(&[
            "teatro",
            "teatre",
            "theatre",
            "theater",
            "escena",
            "circo",
            "circ",
            "magia",
            "monologo",
            "titeres",
            "espectacul",
            "espectacle",
            "show",
            "drama",
            "comedia",
        ]) {
            Category::Theatre
        } else if has(&["cine", "cinema", "film", "audiovisual", "pelicula"]) {
            Category::Film
        } else if has(&["exposic", "exhibit", "exposi", "muestra", "museo", "museu", "arte", "art"]) {
            Category::Exhibition
        } else if has(&["libro", "llibre", "lectura", "literat", "poesia", "cuentacuentos", "book", "biblioteca"]) {
            Category::Literature
        } else if has(&["taller", "curso", "curs", "workshop", "formacion"]) {
            Category::Workshop
        } else if has(&["conferencia", "conferenc", "charla", "coloquio", "talk", "jornada", "congres", "debate", "mesa redonda"]) {
            Category::Talk
        } else if has(&["fiesta", "festa", "festival", "feria", "fira", "fair", "carnaval", "navidad", "nadal", "tradicion"]) {
            Category::Festival
        } else if has(&["deport", "esport", "sport", "carrera", "cursa"]) {
            Category::Sport
        } else if has(&["visita", "ruta", "paseo", "excursion", "itinerari", "tour", "patrimoni", "turism"]) {
            Category::Tour
        } else {
            return None;
        };
        Some(cat)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Category;

    #[test]
    fn publisher_labels_map_to_the_taxonomy() {
        assert_eq!(Category::from_label("CineActividadesAudiovisuales"), Some(Category::Film));
        assert_eq!(Category::from_label("Música"), Some(Category::Music));
    }
}
