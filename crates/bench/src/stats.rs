//! Medians and their intervals over repeated measurements.

/// Median of a non-empty slice.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The median of `values` and a 95% interval for it (distribution-free:
/// the order statistics n/2 ∓ 0.98·√n), or None when empty.
pub fn median_interval(values: &mut [f64]) -> Option<(f64, f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let m = median(values);
    let n = values.len() as f64;
    let half = 0.98 * n.sqrt();
    let low = ((n / 2.0 - half).floor().max(0.0) as usize).min(values.len() - 1);
    let high = ((n / 2.0 + half).ceil() as usize).min(values.len() - 1);
    Some((m, values[low], values[high]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_interval_is_ordered_and_holds_the_median() {
        assert_eq!(median_interval(&mut []), None);
        assert_eq!(median_interval(&mut [2.0]), Some((2.0, 2.0, 2.0)));
        let mut v: Vec<f64> = (0..100).rev().map(f64::from).collect();
        let (m, low, high) = median_interval(&mut v).unwrap();
        assert_eq!(m, 49.5);
        // n/2 ∓ 0.98·√n for n = 100: ranks 40 and 60.
        assert_eq!((low, high), (40.0, 60.0));
    }
}
