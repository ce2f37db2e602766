//! Opening files that another program (or person) may have planted: only regular files, and
//! never through a symbolic link. Merge reads share records and their files this way, and the
//! node cache its entries.

use std::path::Path;

/// Why [`open_regular`] refused a path.
#[derive(Debug, thiserror::Error)]
pub enum RegularFileError {
    /// The path is a symbolic link.
    #[error("a symbolic link")]
    Link,
    /// The path is a folder, a device or another special file.
    #[error("not a regular file")]
    NotRegular,
    /// The file could not be opened or examined.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Opens `path` for reading if it is a regular file, refusing a symbolic link at the path
/// itself (`O_NOFOLLOW` on Unix, so a link swapped in after a check is refused too), with the
/// file's size.
pub fn open_regular(path: &Path) -> Result<(std::fs::File, u64), RegularFileError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    let file = options.open(path).map_err(|e| match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => RegularFileError::Link,
        _ => RegularFileError::Io(e),
    })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(RegularFileError::NotRegular);
    }
    Ok((file, meta.len()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_and_folders_are_refused_and_files_open() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = dir.path().join("f");
        std::fs::write(&file, b"abc").expect("write");
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&file, &link).expect("link");
        assert_eq!(open_regular(&file).expect("opens").1, 3);
        assert!(matches!(open_regular(&link), Err(RegularFileError::Link)));
        assert!(matches!(open_regular(dir.path()), Err(RegularFileError::NotRegular)));
        assert!(matches!(open_regular(&dir.path().join("none")), Err(RegularFileError::Io(_))));
    }
}
