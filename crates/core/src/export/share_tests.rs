//! Tests of builds in shares: share names, plain file names, build identities.

use super::{is_plain_file_name, BuildIdentity, Share};

#[test]
fn only_plain_file_names_pass() {
    for good in ["height_face0_front.png", "map_equirect.r16", "planet.glb", "a+b-c.exr"] {
        assert!(is_plain_file_name(good), "{good}");
    }
    for bad in ["", ".", "..", "../x.png", "/etc/passwd", "a/b.png", "a\\b.png", ".hidden", "manifest.json", "share_1_of_3.json", "x\0y", "ü.png", "C:x.png"] {
        assert!(!is_plain_file_name(bad), "{bad:?}");
    }
}

#[test]
fn identities_name_their_first_difference() {
    let a = BuildIdentity { graph_sha256: "ab".repeat(32), resolution: 1024, whole_planet_level: None, tile_cells: None, own_levels: Default::default(), program: "planetgraph 0.1.0".into() };
    assert_eq!(a.difference(&a.clone()), None);
    let b = BuildIdentity { whole_planet_level: Some(512), tile_cells: Some(1024), ..a.clone() };
    assert!(a.difference(&b).is_some_and(|d| d.contains("whole-planet level whole against 512") && d.contains("--memory")), "{:?}", a.difference(&b));
    let c = BuildIdentity { graph_sha256: "cd".repeat(32), ..a.clone() };
    assert!(a.difference(&c).is_some_and(|d| d.contains("the graphs differ (SHA-256 abababababab against cdcdcdcdcdcd)")));
    let d = BuildIdentity { program: "planetgraph 0.2.0".into(), ..a.clone() };
    assert!(a.difference(&d).is_some_and(|d| d.contains("planetgraph 0.2.0")));
}

#[test]
fn shares_parse_and_deal_units_in_turn() {
    let s = Share::parse("2/3").expect("2/3");
    assert_eq!(s, Share { index: 1, count: 3 });
    assert_eq!((0..7).filter(|&u| s.owns(u)).collect::<Vec<_>>(), vec![1, 4]);
    assert_eq!(s.record_name(), "share_2_of_3.json");
    assert_eq!(s.to_string(), "2/3");
    for bad in ["4/3", "0/3", "1/0", "x", "1/", "-1/3", "3"] {
        assert!(Share::parse(bad).is_err(), "{bad}");
    }
    assert!(Share::parse("4/3").err().is_some_and(|e| e.contains("1 to 3")));
}
