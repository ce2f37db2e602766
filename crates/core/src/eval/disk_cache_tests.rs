//! Tests of the node cache on disk: round trips, damaged and foreign entries, the cap, a
//! folder that cannot be written.

use super::*;

fn outputs() -> Vec<Option<Value>> {
    let f = Field::from_fn_cell(4, |c| c as f32 * 0.5 - 3.0);
    let c = ColourField { n: 2, tile: None, data: (0..24).map(|k| [k as f32, 0.25, -1.0]).collect() };
    let v = crate::planet::VectorField { n: 1, tile: None, data: (0..6).map(|k| [k as f32, -2.0, 1e-3]).collect() };
    vec![Some(Value::Field(Arc::new(f))), None, Some(Value::Colour(Arc::new(c))), Some(Value::Vector(Arc::new(v)))]
}

fn same(a: &[Option<Value>], b: &[Option<Value>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (None, None) => true,
            (Some(Value::Field(x)), Some(Value::Field(y))) => x.n() == y.n() && x.data().iter().zip(y.data()).all(|(p, q)| p.to_bits() == q.to_bits()),
            (Some(Value::Colour(x)), Some(Value::Colour(y))) => x.n == y.n && x.data == y.data,
            (Some(Value::Vector(x)), Some(Value::Vector(y))) => x.n == y.n && x.data == y.data,
            _ => false,
        })
}

#[test]
fn an_entry_reads_back_bit_for_bit_and_only_for_its_key() {
    let dir = tempfile::tempdir().expect("tmp");
    let cache = DiskCache::new(dir.path().join("nodes"), DEFAULT_CAP_BYTES);
    let key = [7u8; 32];
    assert!(cache.load(&key, 4).is_none(), "nothing stored yet");
    cache.store(&key, &outputs());
    let back = cache.load(&key, 4).expect("stored");
    assert!(same(&back, &outputs()));
    assert!(cache.load(&[8u8; 32], 4).is_none(), "another key");
    assert!(cache.load(&key, 3).is_none(), "another node's number of outputs");
    assert_eq!(usage(cache.dir()).expect("usage").entries, 0, "the entry asked for with the wrong shape was dropped");
}

#[test]
fn damaged_cut_short_and_foreign_entries_are_dropped_never_used() {
    let dir = tempfile::tempdir().expect("tmp");
    let cache = DiskCache::new(dir.path(), DEFAULT_CAP_BYTES);
    let key = [1u8; 32];
    let path = cache.path(&key);
    for damage in 0..3 {
        cache.store(&key, &outputs());
        let mut bytes = std::fs::read(&path).expect("entry");
        match damage {
            0 => bytes[60] ^= 1,                  // one bit of a value
            1 => bytes.truncate(bytes.len() / 2), // a crash half way through
            _ => {
                // Another key's entry copied over this one's name.
                let other = [2u8; 32];
                cache.store(&other, &outputs());
                bytes = std::fs::read(cache.path(&other)).expect("other");
            }
        }
        std::fs::write(&path, &bytes).expect("damage");
        assert!(cache.load(&key, 4).is_none(), "damage {damage} was used");
        assert!(!path.exists(), "damage {damage}: the entry is dropped");
    }
    assert_eq!(cache.counts().2, 3);
}

#[test]
fn the_least_recently_used_entries_go_past_the_cap() {
    let dir = tempfile::tempdir().expect("tmp");
    let size = encode(&[0u8; 32], &outputs()).expect("storable").len() as u64;
    let cache = DiskCache::new(dir.path(), 3 * size);
    for k in 0..3u8 {
        cache.store(&[k; 32], &outputs());
        // File times have a coarse grain on some file systems.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(cache.load(&[0u8; 32], 4).is_some(), "the oldest is used again");
    std::thread::sleep(std::time::Duration::from_millis(20));
    cache.store(&[3u8; 32], &outputs());
    let u = usage(dir.path()).expect("usage");
    assert_eq!(u, CacheUsage { entries: 3, bytes: 3 * size });
    assert!(cache.path(&[0u8; 32]).exists(), "used recently: kept");
    assert!(!cache.path(&[1u8; 32]).exists(), "least recently used: gone");
    assert_eq!(clear(dir.path()).expect("clear").entries, 3);
    assert_eq!(usage(dir.path()).expect("usage").entries, 0);
}

#[test]
fn a_folder_that_cannot_be_written_turns_the_cache_off_and_says_so_once() {
    let dir = tempfile::tempdir().expect("tmp");
    // A file where the folder should be: nothing can be created under it.
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, b"x").expect("file");
    let cache = DiskCache::new(blocked.join("nodes"), DEFAULT_CAP_BYTES);
    cache.store(&[1u8; 32], &outputs());
    assert!(cache.load(&[1u8; 32], 4).is_none());
    let notice = cache.notice().expect("says why");
    assert!(notice.contains("off for this run") && notice.contains("nodes"), "{notice}");
    assert!(cache.notice().is_none(), "only once");
}

#[test]
fn an_entry_of_more_than_half_the_cap_is_not_stored() {
    let dir = tempfile::tempdir().expect("tmp");
    let size = encode(&[0u8; 32], &outputs()).expect("storable").len() as u64;
    let cache = DiskCache::new(dir.path(), 2 * size - 2);
    cache.store(&[1u8; 32], &outputs());
    assert_eq!(usage(dir.path()).expect("usage").entries, 0);
    assert!(cache.notice().is_none(), "not a failure");
}

#[test]
fn values_off_the_whole_planet_are_not_stored() {
    let dir = tempfile::tempdir().expect("tmp");
    let cache = DiskCache::new(dir.path(), DEFAULT_CAP_BYTES);
    let regions = crate::planet::RegionSurface::new(4, 0.5, 1);
    cache.store(&[5u8; 32], &[Some(Value::Regions(Arc::new(regions)))]);
    assert_eq!(usage(dir.path()).expect("usage").entries, 0);
}

/// Anyone who can write in the folder could plant entries with sound checksums: a folder
/// everyone can write in is not used.
#[cfg(unix)]
#[test]
fn a_folder_everyone_can_write_in_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tmp");
    let shared = dir.path().join("shared");
    let cache = DiskCache::new(&shared, DEFAULT_CAP_BYTES);
    cache.store(&[1u8; 32], &outputs());
    assert!(cache.load(&[1u8; 32], 4).is_some(), "a private folder works");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let planted = DiskCache::new(&shared, DEFAULT_CAP_BYTES);
    assert!(planted.load(&[1u8; 32], 4).is_none(), "not read from a folder everyone can write in");
    let notice = planted.notice().expect("says why");
    assert!(notice.contains("everyone can write in it"), "{notice}");
    let made = DiskCache::new(dir.path().join("made"), DEFAULT_CAP_BYTES);
    made.store(&[1u8; 32], &outputs());
    let mode = std::fs::metadata(made.dir()).expect("made").permissions().mode();
    assert_eq!(mode & 0o077, 0, "a folder the cache makes is private: {mode:o}");
}

/// An entry that is a symbolic link (to a sound entry elsewhere) is not followed: dropped.
#[cfg(unix)]
#[test]
fn an_entry_that_is_a_link_is_not_followed() {
    let dir = tempfile::tempdir().expect("tmp");
    let elsewhere = DiskCache::new(dir.path().join("elsewhere"), DEFAULT_CAP_BYTES);
    elsewhere.store(&[1u8; 32], &outputs());
    let cache = DiskCache::new(dir.path().join("nodes"), DEFAULT_CAP_BYTES);
    cache.store(&[9u8; 32], &outputs());
    std::os::unix::fs::symlink(elsewhere.path(&[1u8; 32]), cache.path(&[1u8; 32])).expect("link");
    assert!(cache.load(&[1u8; 32], 4).is_none(), "the link was followed");
    assert!(std::fs::symlink_metadata(cache.path(&[1u8; 32])).is_err(), "the link is dropped");
    assert!(elsewhere.path(&[1u8; 32]).exists(), "what it pointed to is left alone");
}
