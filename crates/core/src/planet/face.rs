//! The six faces of the cube-sphere and their frames.
//!
//! Face order and orientation follow seed 000 and the DESIGN contract: right-handed, Y up,
//! 0 front (+Z), 1 right (+X), 2 back (-Z), 3 left (-X), 4 top (+Y), 5 bottom (-Y).
//! Each face is seen from outside the planet with `a` to the right and `b` down.
//! The top face has `a` along +X and `b` along +Z (its `b = 1` edge touches the front face's
//! top edge); the bottom face has `a` along +X and `b` along -Z (its `b = 0` edge touches the
//! front face's bottom edge).

use glam::Vec3;

/// One face of the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// +Z
    Front = 0,
    /// +X
    Right = 1,
    /// -Z
    Back = 2,
    /// -X
    Left = 3,
    /// +Y
    Top = 4,
    /// -Y
    Bottom = 5,
}

impl Face {
    /// All faces in index order.
    pub const ALL: [Face; 6] = [Face::Front, Face::Right, Face::Back, Face::Left, Face::Top, Face::Bottom];

    /// The face with index `i` (0..6).
    pub fn from_index(i: usize) -> Option<Face> {
        Self::ALL.get(i).copied()
    }

    /// Index 0..6 of the face.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short human name, as written in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Face::Front => "front",
            Face::Right => "right",
            Face::Back => "back",
            Face::Left => "left",
            Face::Top => "top",
            Face::Bottom => "bottom",
        }
    }

    /// Outward unit normal of the face (the centre of the face on the cube).
    pub fn normal(self) -> Vec3 {
        match self {
            Face::Front => Vec3::Z,
            Face::Right => Vec3::X,
            Face::Back => -Vec3::Z,
            Face::Left => -Vec3::X,
            Face::Top => Vec3::Y,
            Face::Bottom => -Vec3::Y,
        }
    }

    /// Unit vector along increasing `a` (to the right, seen from outside).
    pub fn right(self) -> Vec3 {
        match self {
            Face::Front => Vec3::X,
            Face::Right => -Vec3::Z,
            Face::Back => -Vec3::X,
            Face::Left => Vec3::Z,
            Face::Top => Vec3::X,
            Face::Bottom => Vec3::X,
        }
    }

    /// Unit vector along increasing `b` (down, seen from outside).
    pub fn down(self) -> Vec3 {
        match self {
            Face::Front | Face::Right | Face::Back | Face::Left => -Vec3::Y,
            Face::Top => Vec3::Z,
            Face::Bottom => -Vec3::Z,
        }
    }

    /// The face whose normal is the given axis-aligned unit vector.
    pub fn from_normal(n: Vec3) -> Face {
        let (ax, ay, az) = (n.x.abs(), n.y.abs(), n.z.abs());
        if ax >= ay && ax >= az {
            if n.x >= 0.0 {
                Face::Right
            } else {
                Face::Left
            }
        } else if ay >= az {
            if n.y >= 0.0 {
                Face::Top
            } else {
                Face::Bottom
            }
        } else if n.z >= 0.0 {
            Face::Front
        } else {
            Face::Back
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_orthonormal_and_seen_from_outside() {
        for f in Face::ALL {
            let (n, r, d) = (f.normal(), f.right(), f.down());
            assert!(n.dot(r).abs() < 1e-6 && n.dot(d).abs() < 1e-6 && r.dot(d).abs() < 1e-6);
            // right x down points into the planet for every face: no face is mirrored.
            assert!((r.cross(d) + n).length() < 1e-6, "face {f:?}");
            assert_eq!(Face::from_normal(n), f);
            assert_eq!(Face::from_index(f.index()), Some(f));
        }
    }
}
