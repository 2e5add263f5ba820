//! Secret tokens and match ids.

/// A fresh secret: 160 random bits from the OS-seeded CSPRNG, as hex.
pub fn token() -> String {
    random_hex::<20>()
}

/// A fresh match id: public, short, unlikely to collide.
pub fn match_id() -> String {
    random_hex::<8>()
}

fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    rand::fill(&mut bytes[..]);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares a presented token with a secret in time that does not depend on
/// where they differ.
pub fn same(presented: &str, secret: &str) -> bool {
    let (a, b) = (presented.as_bytes(), secret.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `id` looks like a match id (so junk never reaches the store).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_distinct() {
        let (a, b) = (token(), token());
        assert_eq!(a.len(), 40);
        assert_ne!(a, b);
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b));
        assert!(!same("", &a));
    }
}
