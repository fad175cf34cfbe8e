//! The hash of a whole text for the exact-duplicate check, blind to white space layout
//! (`sverka.core.shortdoc.full_text_hash`): xxh64 with the seed of the UTF-32-LE code points
//! of the text with every run of white space as one space and the ends stripped.

use crate::hashing::HASH_SEED;

/// Python's `str.isspace` (the code points are listed in `sverka.core.shortdoc.WHITE_SPACE`).
#[inline]
pub fn is_space(c: u32) -> bool {
    matches!(c, 0x09..=0x0D | 0x1C..=0x20 | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A
        | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
}

/// [`full_text_hash`] over the code points of a text (lone surrogates included as they are).
pub fn full_text_hash<I: IntoIterator<Item = u32>>(codes: I) -> u64 {
    let mut hasher = xxhash_rust::xxh64::Xxh64::new(HASH_SEED);
    let mut buffer = [0u8; 1 << 15];
    let mut used = 0;
    let mut put = |c: u32, hasher: &mut xxhash_rust::xxh64::Xxh64| {
        buffer[used..used + 4].copy_from_slice(&c.to_le_bytes());
        used += 4;
        if used == buffer.len() {
            hasher.update(&buffer);
            used = 0;
        }
    };
    let mut space_pending = false;
    let mut started = false;
    for c in codes {
        if is_space(c) {
            space_pending = started;
            continue;
        }
        if space_pending {
            put(0x20, &mut hasher);
            space_pending = false;
        }
        started = true;
        put(c, &mut hasher);
    }
    drop(put);
    hasher.update(&buffer[..used]);
    hasher.digest()
}

/// [`full_text_hash`] of a Rust string.
pub fn full_text_hash_str(text: &str) -> u64 {
    full_text_hash(text.chars().map(u32::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::hash_bytes;

    fn utf32(s: &str) -> Vec<u8> {
        s.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect()
    }

    #[test]
    fn layout_does_not_matter() {
        let plain = full_text_hash_str("Мороз и солнце; день чудесный!");
        assert_eq!(plain, hash_bytes(&utf32("Мороз и солнце; день чудесный!")));
        assert_eq!(full_text_hash_str("\u{3000} Мороз\n\tи  солнце;\u{a0}день\r\nчудесный!\x1c "), plain);
        assert_ne!(full_text_hash_str("Мороз и солнце; деньчудесный!"), plain);
        assert_eq!(full_text_hash_str(" \n "), hash_bytes(b""));
    }
}
