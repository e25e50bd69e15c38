//! [`open_enum!`](crate::open_enum): string enums that keep values they do not know, so a new
//! server-side value never breaks decoding.

/// Declares an open string enum: the listed variants plus `Unknown(String)`.
///
/// The expansion says in its docs that the enum is open, is `#[non_exhaustive]`, derives `Clone, Debug, PartialEq, Eq, Hash`, and
/// implements `Serialize`/`Deserialize` as the wire string (unknown values decode into
/// `Unknown` and re-serialise unchanged), `as_str()`, `Display`, infallible `FromStr`, and
/// `From<&str>` / `From<String>`. A variant may not be named `Unknown`.
///
/// ```
/// tidings_runtime::open_enum! {
///     /// Delivery status of an email.
///     pub enum EmailStatus {
///         /// Waiting for its send time.
///         Scheduled = "scheduled",
///         Queued = "queued",
///     }
/// }
///
/// let s: EmailStatus = serde_json::from_str("\"queued\"").unwrap();
/// assert_eq!(s, EmailStatus::Queued);
/// let new: EmailStatus = serde_json::from_str("\"teleported\"").unwrap();
/// assert_eq!(new, EmailStatus::Unknown("teleported".into()));
/// assert_eq!(serde_json::to_string(&new).unwrap(), "\"teleported\"");
/// assert_eq!("scheduled".parse::<EmailStatus>(), Ok(EmailStatus::Scheduled));
/// ```
#[macro_export]
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $value:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[doc = ""]
        #[doc = "Open: a value this version does not know decodes as `Unknown` and is sent back unchanged."]
        #[derive(::std::clone::Clone, ::std::fmt::Debug, ::std::cmp::PartialEq, ::std::cmp::Eq, ::std::hash::Hash)]
        #[non_exhaustive]
        $vis enum $name {
            $(
                $(#[$vmeta])*
                $variant,
            )*
            /// A value this version does not know, kept verbatim.
            Unknown(::std::string::String),
        }

        #[allow(dead_code)]
        impl $name {
            /// Every value this version knows, as sent on the wire.
            pub const KNOWN: &'static [&'static str] = &[$($value),*];

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Unknown(value) => value.as_str(),
                }
            }

            /// Whether this is a value this version does not know.
            pub fn is_unknown(&self) -> bool {
                ::std::matches!(self, $name::Unknown(_))
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;
            fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                ::std::result::Result::Ok(match value {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(::std::borrow::ToOwned::to_owned(other)),
                })
            }
        }

        impl ::std::convert::From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(::std::borrow::ToOwned::to_owned(other)),
                }
            }
        }

        impl ::std::convert::From<::std::string::String> for $name {
            fn from(value: ::std::string::String) -> Self {
                match value.as_str() {
                    $( $value => $name::$variant, )*
                    _ => $name::Unknown(value),
                }
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                let value: ::std::string::String =
                    $crate::__private::serde::Deserialize::deserialize(deserializer)?;
                ::std::result::Result::Ok(<$name as ::std::convert::From<::std::string::String>>::from(value))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::open_enum! {
        /// Test enum.
        pub enum Channel {
            /// SMS.
            Sms = "sms",
            WhatsApp = "whatsapp",
        }
    }

    crate::open_enum! {
        enum Empty {}
    }

    #[test]
    fn known_values_round_trip() {
        for value in Channel::KNOWN {
            let parsed: Channel = serde_json::from_str(&format!("\"{value}\"")).expect("decodes");
            assert!(!parsed.is_unknown());
            assert_eq!(
                serde_json::to_string(&parsed).expect("encodes"),
                format!("\"{value}\"")
            );
        }
    }

    #[test]
    fn unknown_values_are_kept() {
        let parsed: Channel = serde_json::from_str("\"carrier_pigeon\"").expect("decodes");
        assert_eq!(parsed, Channel::Unknown("carrier_pigeon".to_owned()));
        assert_eq!(parsed.to_string(), "carrier_pigeon");
        assert_eq!(
            serde_json::to_string(&parsed).expect("encodes"),
            "\"carrier_pigeon\""
        );
        assert_eq!(Empty::from("x").as_str(), "x");
    }

    #[test]
    fn non_strings_are_rejected() {
        assert!(serde_json::from_str::<Channel>("3").is_err());
    }
}
