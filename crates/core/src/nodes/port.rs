//! [`InPort`] and [`OutPort`]: typed handles on one input or output port of a node kind, so code
//! outside the node's file (the exports, the build, the viewport, links made in code) names a
//! port by a constant that carries its position, its saved name and the type of its value,
//! instead of a string or an index.

use super::meta::{PortDef, PortType};
use super::value::Value;
use crate::planet::{ColourField, Field, RegionSurface, VectorField};
use crate::tectonics::Plates;
use std::marker::PhantomData;
use std::sync::Arc;

/// A Rust type that travels on ports of one [`PortType`].
pub trait PortValue: Sized {
    /// The port type that carries it.
    const TYPE: PortType;
    /// Its name in errors ("field", "colour field").
    const WHAT: &'static str;
    /// The value as this type, if it is one.
    fn of(value: &Value) -> Option<&Arc<Self>>;
}

impl PortValue for Field {
    const TYPE: PortType = PortType::Field;
    const WHAT: &'static str = "field";
    fn of(value: &Value) -> Option<&Arc<Self>> {
        value.as_field()
    }
}

impl PortValue for ColourField {
    const TYPE: PortType = PortType::Colour;
    const WHAT: &'static str = "colour field";
    fn of(value: &Value) -> Option<&Arc<Self>> {
        value.as_colour()
    }
}

impl PortValue for VectorField {
    const TYPE: PortType = PortType::Vector;
    const WHAT: &'static str = "vector field";
    fn of(value: &Value) -> Option<&Arc<Self>> {
        value.as_vector()
    }
}

impl PortValue for RegionSurface {
    const TYPE: PortType = PortType::Regions;
    const WHAT: &'static str = "region surface";
    fn of(value: &Value) -> Option<&Arc<Self>> {
        value.as_regions()
    }
}

impl PortValue for Plates {
    const TYPE: PortType = PortType::Plates;
    const WHAT: &'static str = "set of plates";
    fn of(value: &Value) -> Option<&Arc<Self>> {
        value.as_plates()
    }
}

/// A typed handle on port `index` of a node kind, declared by `def` and carrying values of type
/// `T`; `D` says which side of the node it is on ([`In`] or [`Out`]). Use the aliases
/// [`InPort`] and [`OutPort`].
pub struct Port<T, D> {
    index: usize,
    def: PortDef,
    ty: PhantomData<fn() -> (T, D)>,
}

/// The input side of a node ([`InPort`]).
pub enum In {}
/// The output side of a node ([`OutPort`]).
pub enum Out {}

/// A side of a node, [`In`] or [`Out`].
pub trait Side {
    /// Its word in errors ("input", "output").
    const WORD: &'static str;
    /// Whether it is the input side.
    const INPUT: bool;
}

impl Side for In {
    const WORD: &'static str = "input";
    const INPUT: bool = true;
}

impl Side for Out {
    const WORD: &'static str = "output";
    const INPUT: bool = false;
}

/// Input `index` of a node kind, declared by `def` and carrying values of type `T`.
///
/// A node file declares its ports with [`ports!`](crate::ports), which makes the handles and the
/// port list of its [`super::NodeMeta`] from one list, so the name, the position and the type
/// cannot disagree.
pub type InPort<T> = Port<T, In>;

/// Output `index` of a node kind, declared by `def` and carrying values of type `T`: the other
/// end of a typed link ([`crate::graph::Graph::link`] joins an `OutPort<T>` only to an
/// `InPort<T>`).
pub type OutPort<T> = Port<T, Out>;

impl<T, D> Clone for Port<T, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, D> Copy for Port<T, D> {}

impl<T: PortValue, D> Port<T, D> {
    /// The handle on port `index`, declared by `def`; fails to compile when `def`'s type is
    /// not `T`'s.
    pub const fn new(index: usize, def: PortDef) -> Port<T, D> {
        assert!(def.ty as u8 == T::TYPE as u8, "the port's declared type differs from the handle's value type");
        Port { index, def, ty: PhantomData }
    }

    /// Position among the kind's inputs or outputs.
    pub const fn index(self) -> usize {
        self.index
    }

    /// The port's declaration.
    pub const fn def(self) -> PortDef {
        self.def
    }

    /// The saved name (a link's `input` or `output`).
    pub const fn name(self) -> &'static str {
        self.def.name
    }
}

impl<T: PortValue, D: Side> Port<T, D> {
    /// This port's value among a node's input or output `values`, in port order (`Ok(None)`
    /// when it has none: an input not connected, an output not wanted; an error when it holds
    /// another type).
    pub fn value_in(self, values: &[Option<Value>]) -> Result<Option<&Arc<T>>, String> {
        match values.get(self.index) {
            Some(Some(v)) => T::of(v).map(Some).ok_or_else(|| format!("{} '{}' is not a {}", D::WORD, self.name(), T::WHAT)),
            Some(None) => Ok(None),
            None => Err(format!("{} '{}' is missing", D::WORD, self.name())),
        }
    }

    /// Whether the kind's ports on this side hold this port, by name and type, at this
    /// handle's index.
    pub const fn is_port_of(self, meta: &super::NodeMeta) -> bool {
        declares(if D::INPUT { meta.inputs } else { meta.outputs }, self.index, self.def)
    }
}

/// Whether `ports` holds a port of `def`'s name and type at `index`.
const fn declares(ports: &[PortDef], index: usize, def: PortDef) -> bool {
    if index >= ports.len() {
        return false;
    }
    let (a, b) = (ports[index].name.as_bytes(), def.name.as_bytes());
    if a.len() != b.len() || ports[index].ty as u8 != def.ty as u8 {
        return false;
    }
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// Input 0, `in`, of the nodes that take one field ([`super::meta::IN`]: Abs, Blur, Slope,
/// To metres and the other modify nodes).
pub const FIELD_IN: InPort<Field> = InPort::new(0, PortDef::field("in"));
/// Input 0, `a`, of the binary combine nodes ([`super::meta::IN_AB`]: Add, Multiply, Max, ...).
pub const FIELD_A: InPort<Field> = InPort::new(0, PortDef::field("a"));
/// Input 1, `b`, of the binary combine nodes.
pub const FIELD_B: InPort<Field> = InPort::new(1, PortDef::field("b"));
/// Output 0, `out`, of the nodes that give one field ([`super::meta::OUT`] and
/// [`super::meta::OUT_AS_INPUT`]: the sources, the modify and combine nodes).
pub const FIELD_OUT: OutPort<Field> = OutPort::new(0, PortDef::field("out"));

#[cfg(test)]
mod tests {
    use super::{InPort, OutPort, FIELD_OUT};
    use crate::nodes::meta::{Category, NodeMeta, PortDef, PortType, OUT};
    use crate::planet::{ColourField, Field};
    use std::sync::Arc;

    const A: InPort<Field> = InPort::new(0, PortDef::field("a"));
    const C: InPort<ColourField> = InPort::new(1, PortDef::optional("c", PortType::Colour));
    const META: NodeMeta = NodeMeta::new("Test", Category::Combine, "", &[A.def(), C.def()], OUT, file!());

    #[test]
    fn handles_find_their_port_and_refuse_a_value_of_another_type() {
        assert!(A.is_port_of(&META) && C.is_port_of(&META));
        assert!(!InPort::<Field>::new(1, PortDef::field("a")).is_port_of(&META), "wrong index");
        assert!(!InPort::<Field>::new(0, PortDef::field("b")).is_port_of(&META), "wrong name");
        let f = crate::nodes::Value::Field(Arc::new(Field::filled(2, 0.0)));
        let inputs = [Some(f.clone()), None];
        assert!(A.value_in(&inputs).expect("a field").is_some());
        assert!(C.value_in(&inputs).expect("not connected").is_none());
        let swapped = [None, Some(f)];
        assert_eq!(C.value_in(&swapped).err().as_deref(), Some("input 'c' is not a colour field"));
        assert!(FIELD_OUT.is_port_of(&META));
        assert!(!InPort::<Field>::new(0, PortDef::field("out")).is_port_of(&META), "an output is no input");
        assert!(!OutPort::<Field>::new(1, PortDef::field("out")).is_port_of(&META), "wrong index");
        assert!(!OutPort::<ColourField>::new(0, PortDef::of("out", PortType::Colour)).is_port_of(&META), "wrong type");
    }
}
