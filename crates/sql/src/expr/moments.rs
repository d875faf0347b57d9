//! The running state of STD/STDDEV/VARIANCE and their _POP/_SAMP forms:
//! the count, the mean and the sum of squared distances from it
//! (Welford's update), which two threads' shares merge exactly (Chan's
//! formula) and which does not lose precision as a sum of squares does.

/// Which statistic the state gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spread {
    /// Divide by n - 1 (VAR_SAMP, STDDEV_SAMP), else by n.
    pub sample: bool,
    /// The square root (a standard deviation), else the variance.
    pub root: bool,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Moments {
    n: u64,
    mean: f64,
    squares: f64,
}

impl Moments {
    pub(crate) fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.squares += delta * (x - self.mean);
    }

    pub(crate) fn merge(&mut self, other: &Moments) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = other.clone();
            return;
        }
        let n = self.n + other.n;
        let delta = other.mean - self.mean;
        self.squares +=
            other.squares + delta * delta * (self.n as f64) * (other.n as f64) / n as f64;
        self.mean += delta * other.n as f64 / n as f64;
        self.n = n;
    }

    /// The statistic, None without rows (or one row, for a sample's).
    pub(crate) fn finish(&self, spread: Spread) -> Option<f64> {
        let divisor = if spread.sample {
            self.n.checked_sub(1).filter(|d| *d > 0)?
        } else {
            Some(self.n).filter(|n| *n > 0)?
        };
        let variance = (self.squares / divisor as f64).max(0.0);
        Some(if spread.root {
            variance.sqrt()
        } else {
            variance
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POP: Spread = Spread {
        sample: false,
        root: false,
    };
    const SAMPLE_ROOT: Spread = Spread {
        sample: true,
        root: true,
    };

    #[test]
    fn variance_of_rows_and_of_merged_shares() {
        let mut all = Moments::default();
        for x in [1.0, 2.0, 4.0] {
            all.add(x);
        }
        assert!((all.finish(POP).unwrap() - 14.0 / 9.0).abs() < 1e-12);
        assert!((all.finish(SAMPLE_ROOT).unwrap() - (7.0f64 / 3.0).sqrt()).abs() < 1e-12);
        let (mut a, mut b) = (Moments::default(), Moments::default());
        a.add(1.0);
        b.add(2.0);
        b.add(4.0);
        a.merge(&b);
        assert!((a.finish(POP).unwrap() - all.finish(POP).unwrap()).abs() < 1e-12);
    }

    #[test]
    fn too_few_rows_give_none() {
        let mut m = Moments::default();
        assert_eq!(m.finish(POP), None);
        m.add(3.0);
        assert_eq!(m.finish(POP), Some(0.0));
        assert_eq!(m.finish(SAMPLE_ROOT), None);
    }
}
