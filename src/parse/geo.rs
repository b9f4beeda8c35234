//! Where an event is: coordinates a feed gives in a projection (UTM
//! metres) read as WGS84 degrees, and a source's region, the bounding boxes
//! its events must lie in (a point outside is dropped by the record
//! framework, counted, never stored). The conversion is proj4rs's, a port
//! of PROJ: no trigonometry of our own. Not for parsing the numbers
//! themselves (`parse::number::decimal`) nor for Spain's own outline
//! (`model::in_spain`, which every venue passes through as well).

use proj4rs::Proj;

/// A latitude and longitude box, in WGS84 degrees, edges included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBox {
    pub south: f64,
    pub west: f64,
    pub north: f64,
    pub east: f64,
}

impl BoundingBox {
    pub const fn new(south: f64, west: f64, north: f64, east: f64) -> BoundingBox {
        BoundingBox { south, west, north, east }
    }

    /// Whether the point lies in the box (edges included).
    pub fn contains(&self, lat: f64, lon: f64) -> bool {
        (self.south..=self.north).contains(&lat) && (self.west..=self.east).contains(&lon)
    }
}

impl std::fmt::Display for BoundingBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "lat {}..{}, lon {}..{}", self.south, self.north, self.west, self.east)
    }
}

/// A source's region: one or more boxes (a mainland and its islands).
/// An empty region is Spain's ([`crate::model::in_spain`]) alone.
pub type Region = &'static [BoundingBox];

/// Whether `(lat, lon)` lies in `region` (any of its boxes); every point
/// does in an empty region.
///
/// ```
/// use cityvibe::parse::geo::{BoundingBox, in_region};
/// const ANDALUSIA: &[BoundingBox] = &[BoundingBox::new(35.9, -7.6, 38.8, -1.6)];
/// assert!(in_region(ANDALUSIA, 37.39, -5.99)); // Seville
/// assert!(!in_region(ANDALUSIA, 40.42, -3.70)); // Madrid
/// assert!(in_region(&[], 40.42, -3.70));
/// ```
pub fn in_region(region: &[BoundingBox], lat: f64, lon: f64) -> bool {
    region.is_empty() || region.iter().any(|b| b.contains(lat, lon))
}

/// UTM metres on the ETRS89 datum (EPSG:25828 to 25831: what Spanish
/// portals publish; `zone` 30 for most of the peninsula, 28 for the
/// Canaries, northern hemisphere) as WGS84 `(latitude, longitude)` in
/// degrees. ETRS89 and WGS84 differ by well under a metre here. `None`
/// when the zone is not a UTM zone or the numbers do not project.
///
/// ```
/// use cityvibe::parse::geo::utm_etrs89_to_degrees;
/// // Madrid's Puerta del Sol, kilometre zero: 440 290 m E, 4 474 250 m N in zone 30.
/// let (lat, lon) = utm_etrs89_to_degrees(30, 440_290.0, 4_474_250.0).unwrap();
/// assert!((lat - 40.41673).abs() < 0.00005 && (lon - -3.70380).abs() < 0.00005, "{lat} {lon}");
/// assert_eq!(utm_etrs89_to_degrees(61, 235_555.0, 4_141_655.0), None);
/// assert_eq!(utm_etrs89_to_degrees(30, f64::NAN, 4_141_655.0), None);
/// ```
pub fn utm_etrs89_to_degrees(zone: u8, easting: f64, northing: f64) -> Option<(f64, f64)> {
    if !(1..=60).contains(&zone) || !easting.is_finite() || !northing.is_finite() {
        return None;
    }
    let from = Proj::from_proj_string(&format!("+proj=utm +zone={zone} +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs")).ok()?;
    let to = Proj::from_proj_string("+proj=longlat +datum=WGS84 +no_defs").ok()?;
    let (lon, lat) = proj4rs::adaptors::transform_xy(&from, &to, easting, northing).ok()?;
    let (lat, lon) = (lat.to_degrees(), lon.to_degrees());
    (lat.is_finite() && lon.is_finite() && (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
}
