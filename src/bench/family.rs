//! The instance family named in a benchmark file name, e.g.
//! `grid_32x32_dist.1_vflip.true_hflip.false_messedup.true_id.0.dat` → `dist.1 messedup`.

/// `dist.N` from the name, followed by `messedup` when the name says `messedup.true`. Otherwise
/// the name's first `_`-separated word when the name has several, as in our shipped
/// `maze-wilson_128x128_s128.txt` → `maze-wilson`; `-` for a plain name.
pub fn family_of(file_name: &str) -> String {
    // Tokens are `_`-separated `key.value` pairs; the last one may carry the extension.
    let value = |token: &str, key: &str| -> Option<String> {
        let rest = token.strip_prefix(key)?.strip_prefix('.')?;
        let v = rest.split('.').next().unwrap_or("");
        (!v.is_empty()).then(|| v.to_string())
    };
    let mut parts = Vec::new();
    if let Some(n) = file_name.split('_').find_map(|t| value(t, "dist")) {
        parts.push(format!("dist.{n}"));
    }
    if file_name
        .split('_')
        .any(|t| value(t, "messedup").as_deref() == Some("true"))
    {
        parts.push("messedup".to_string());
    }
    if parts.is_empty() {
        match file_name.split_once('_') {
            Some((first, _)) if !first.is_empty() => first.to_string(),
            _ => "-".to_string(),
        }
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::family_of;

    #[test]
    fn names_of_the_public_set() {
        assert_eq!(
            family_of("grid_32x32_dist.1_vflip.true_hflip.false_messedup.true_id.0.dat"),
            "dist.1 messedup"
        );
        assert_eq!(
            family_of("grid_8x8_dist.6_vflip.false_hflip.true_messedup.false_id.1.dat"),
            "dist.6"
        );
        assert_eq!(family_of("lvl.txt"), "-");
        assert_eq!(family_of("dist.0"), "dist.0");
        assert_eq!(family_of("a_messedup.true.dat"), "messedup");
        assert_eq!(family_of("distance.3_x"), "distance.3");
        assert_eq!(family_of("maze-wilson_128x128_s128.txt"), "maze-wilson");
        assert_eq!(family_of("_x.txt"), "-");
    }
}
