//! Medians and their intervals over repeated measurements.

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
