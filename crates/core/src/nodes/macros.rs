//! The macros a node file uses: [`settings!`](crate::settings) for its typed settings,
//! [`choices!`](crate::choices) for the enums of its choice parameters and
//! [`ports!`](crate::ports) for its typed port handles.

/// Defines a node's settings struct, its parameter definitions and the mapping between them
/// from one list, so a field cannot lack a definition or the reverse. Each entry is
/// `field: Type = definition`, or `field as "key": Type = definition` where the saved key
/// differs from the field name. A second struct of the same field names holds the saved keys
/// (`Settings::KEYS`), so code that names a parameter is checked by the compiler.
///
/// ```ignore
/// settings! {
///     /// Settings of the Scale and bias node.
///     pub struct ScaleBiasSettings, keys ScaleBiasKeys {
///         /// Multiplier.
///         scale: f32 = float("Scale", 1.0, -100.0, 100.0, Unit::None, 0.01, "Multiplier."),
///     }
/// }
/// ```
#[macro_export]
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident, keys $keys:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident $(as $key:literal)? : $ty:ty = $def:expr
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        #[doc = concat!("The saved key of each field of [`", stringify!($name), "`].")]
        #[derive(Debug, Clone, Copy)]
        #[allow(missing_docs)]
        pub struct $keys {
            $( pub $field: &'static str, )*
        }

        impl $name {
            /// The saved key of each field.
            pub const KEYS: $keys = $keys { $( $field: $crate::settings!(@key $field $($key)?), )* };
        }

        impl $crate::nodes::params::Settings for $name {
            const PARAMS: &'static [$crate::nodes::params::ParamDef] = &[
                $( $crate::nodes::params::ParamDef { name: $crate::settings!(@key $field $($key)?), ..$def }, )*
            ];

            #[allow(unused_variables, unused_assignments, unused_mut)]
            fn from_params(values: &$crate::nodes::params::ParamMap) -> Result<Self, $crate::nodes::params::ParamError> {
                let mut k = 0usize;
                Ok($name {
                    $( $field: {
                        let v = $crate::nodes::params::read_param::<$ty>(&Self::PARAMS[k], values)?;
                        k += 1;
                        v
                    }, )*
                })
            }

            #[allow(unused_mut)]
            fn to_params(&self) -> $crate::nodes::params::ParamMap {
                let mut m = $crate::nodes::params::ParamMap::new();
                $( m.insert($crate::settings!(@key $field $($key)?).to_string(), $crate::nodes::params::ParamType::to_value(&self.$field)); )*
                m
            }
        }
    };
    (@key $field:ident $key:literal) => { $key };
    (@key $field:ident) => { stringify!($field) };
}

/// Defines a choice enum whose options are saved by stable identifiers and shown by labels:
/// `Variant = ("identifier", "Label")`. Makes `OPTIONS`, `id()`, `label()`, `param()` (the
/// parameter definition with this variant as default) and the [`ParamType`] mapping.
#[macro_export]
macro_rules! choices {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = ($id:literal, $label:literal) ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every option in menu order (the enum's order).
            pub const OPTIONS: &'static [$crate::nodes::params::ChoiceOption] = &[
                $( $crate::nodes::params::ChoiceOption { id: $id, label: $label }, )+
            ];
            /// Every variant, in the order of [`Self::OPTIONS`].
            pub const VARIANTS: &'static [$name] = &[ $( $name::$variant, )+ ];

            /// The saved identifier.
            pub fn id(self) -> &'static str {
                Self::OPTIONS[self as usize].id
            }

            /// The display label.
            pub fn label(self) -> &'static str {
                Self::OPTIONS[self as usize].label
            }

            /// The option saved as `id`.
            pub fn from_id(id: &str) -> Option<Self> {
                Self::OPTIONS.iter().position(|o| o.id == id).map(|k| Self::VARIANTS[k])
            }

            /// A choice parameter over these options with `self` as default.
            pub const fn param(self, label: &'static str, tooltip: &'static str) -> $crate::nodes::params::ParamDef {
                $crate::nodes::params::choice(label, self as usize, Self::OPTIONS, tooltip)
            }
        }

        impl $crate::nodes::param_types::Choice for $name {
            const OPTIONS: &'static [$crate::nodes::params::ChoiceOption] = $name::OPTIONS;
            fn from_id(id: &str) -> Option<Self> {
                $name::from_id(id)
            }
            fn id(self) -> &'static str {
                $name::id(self)
            }
        }

        impl $crate::nodes::params::ParamType for $name {
            fn from_value(v: &$crate::nodes::params::ParamValue) -> Option<Self> {
                match v {
                    $crate::nodes::params::ParamValue::Choice(id) => Self::from_id(id),
                    _ => None,
                }
            }
            fn to_value(&self) -> $crate::nodes::params::ParamValue {
                $crate::nodes::params::ParamValue::Choice(self.id().to_string())
            }
        }
    };
}

/// Declares a node's typed port handles and the port list made from them, so a port's position,
/// saved name and value type are written once: each entry `NAME: Type = definition` becomes a
/// public [`InPort`](crate::nodes::InPort) (side `In`) or [`OutPort`](crate::nodes::OutPort)
/// (side `Out`) at the entry's position, and the list (for the node's
/// [`NodeMeta`](crate::nodes::NodeMeta)) holds their definitions in that order.
///
/// ```ignore
/// ports! {
///     /// Inputs of the Blend node.
///     const INPUTS: In = [
///         /// The field where the mask is 0.
///         A: Field = PortDef::field("a"),
///         /// The field where the mask is 1.
///         B: Field = PortDef::field("b"),
///     ];
/// }
/// ```
#[macro_export]
macro_rules! ports {
    (
        $(#[$lmeta:meta])*
        $vis:vis const $list:ident: $side:ident = [
            $( $(#[$pmeta:meta])* $name:ident: $ty:ty = $def:expr ),* $(,)?
        ];
    ) => {
        $crate::ports!(@each $side, 0usize; $( $(#[$pmeta])* $name: $ty = $def, )*);
        $(#[$lmeta])*
        $vis const $list: &[$crate::nodes::PortDef] = &[$( $name.def() ),*];
    };
    (@each $side:ident, $index:expr; ) => {};
    (@each $side:ident, $index:expr; $(#[$pmeta:meta])* $name:ident: $ty:ty = $def:expr, $($rest:tt)*) => {
        $(#[$pmeta])*
        pub const $name: $crate::nodes::port::Port<$ty, $crate::nodes::port::$side> = $crate::nodes::port::Port::new($index, $def);
        $crate::ports!(@each $side, $index + 1; $($rest)*);
    };
}
