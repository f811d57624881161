//! [`Count`]: a number of solutions. Almost every count met while counting is small, so it is a
//! plain `u128` until an operation would overflow, and only then an arbitrary-precision
//! [`BigUint`]: exact answers for any grid without a heap allocation per search node.

use std::fmt;

use num_bigint::BigUint;
use num_traits::Zero;

/// A non-negative number of solutions; see the module doc. It turns `Big` on the first
/// overflow and stays so; `==` compares values, whatever the form.
#[derive(Clone, Debug)]
pub enum Count {
    /// No operation has overflowed a `u128` yet.
    Small(u128),
    /// Arbitrary precision, after some operation overflowed a `u128`.
    Big(BigUint),
}

impl PartialEq for Count {
    fn eq(&self, other: &Count) -> bool {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => a == b,
            _ => self.to_biguint() == other.to_biguint(),
        }
    }
}

impl Eq for Count {}

impl Count {
    /// No solution.
    pub const ZERO: Count = Count::Small(0);
    /// Exactly one solution.
    pub const ONE: Count = Count::Small(1);

    /// True when the value is 0.
    pub fn is_zero(&self) -> bool {
        match self {
            Count::Small(v) => *v == 0,
            Count::Big(v) => v.is_zero(),
        }
    }

    /// The value as a [`BigUint`] (a copy).
    pub fn to_biguint(&self) -> BigUint {
        match self {
            Count::Small(v) => BigUint::from(*v),
            Count::Big(v) => v.clone(),
        }
    }

    /// The value as a `u128` when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Count::Small(v) => Some(*v),
            Count::Big(v) => u128::try_from(v).ok(),
        }
    }

    /// `self += other`, switching to [`Count::Big`] only when the sum overflows `u128`.
    pub fn add_assign(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other)
            && let Some(s) = a.checked_add(*b)
        {
            *self = Count::Small(s);
            return;
        }
        *self = Count::Big(self.to_biguint() + other.to_biguint());
    }

    /// `self *= other`, switching to [`Count::Big`] only when the product overflows `u128`.
    pub fn mul_assign(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other)
            && let Some(p) = a.checked_mul(*b)
        {
            *self = Count::Small(p);
            return;
        }
        *self = Count::Big(self.to_biguint() * other.to_biguint());
    }

    /// Lowers the value to `limit` if it is above; true when the value is now `limit` (the
    /// limit is reached).
    pub fn cap(&mut self, limit: u64) -> bool {
        let limit = u128::from(limit);
        match self.to_u128() {
            Some(v) if v < limit => false,
            _ => {
                *self = Count::Small(limit);
                true
            }
        }
    }
}

impl From<u64> for Count {
    fn from(v: u64) -> Count {
        Count::Small(u128::from(v))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Small(v) => write!(f, "{v}"),
            Count::Big(v) => write!(f, "{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_compares_values_not_forms() {
        assert_eq!(Count::Big(BigUint::from(5u32)), Count::Small(5));
        assert_ne!(Count::Big(BigUint::from(6u32)), Count::Small(5));
        let mut big = Count::Small(u128::MAX);
        big.add_assign(&Count::ONE);
        assert_ne!(big, Count::Small(u128::MAX));
        assert_eq!(big, Count::Big(BigUint::from(u128::MAX) + 1u32));
    }

    #[test]
    fn overflow_moves_to_arbitrary_precision() {
        let mut c = Count::Small(u128::MAX);
        c.add_assign(&Count::ONE);
        assert_eq!(c.to_biguint(), BigUint::from(u128::MAX) + 1u32);
        assert_eq!(c.to_u128(), None);
        let mut p = Count::Small(1 << 100);
        p.mul_assign(&Count::Small(1 << 100));
        assert_eq!(p.to_string(), (BigUint::from(1u32) << 200usize).to_string());
        let mut z = p.clone();
        z.mul_assign(&Count::ZERO);
        assert!(z.is_zero());
    }

    #[test]
    fn cap_stops_at_the_limit() {
        let mut c = Count::Small(5);
        assert!(!c.cap(6));
        assert_eq!(c, Count::Small(5));
        assert!(c.cap(5));
        let mut big = Count::Big(BigUint::from(1u32) << 300);
        assert!(big.cap(7));
        assert_eq!(big, Count::Small(7));
    }
}
