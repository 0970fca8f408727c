//! The 32-byte vectors the lanes ([`lanes`](super::lanes)) compute with: `wide`'s portable
//! `u8x32` everywhere, and on x86-64 processors with AVX2 a type whose every operation is one
//! AVX2 instruction (chosen at run time, as `wide` itself is built for the baseline target).
//!
//! A vector is only made from a [`LaneVec::Token`]: for the AVX2 type that is an
//! [`Avx2Token`], which only the processor's feature detection hands out, so no safe code can
//! run AVX2 instructions on a processor without them.

use std::ops::{Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// 32 lanes of bytes.
pub(super) trait LaneVec:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + AddAssign
    + SubAssign
{
    /// The proof that the processor runs this type's instructions.
    type Token: Copy;
    /// Every lane `x`.
    fn splat(t: Self::Token, x: u8) -> Self;
    /// The lanes of `a`.
    fn new(t: Self::Token, a: [u8; 32]) -> Self;
    /// Every lane `x`, on the proof that `self` was made with.
    #[inline(always)]
    fn same(self, x: u8) -> Self {
        Self::splat(self.token_of(), x)
    }
    /// The token this vector was made with (a vector is made only from one).
    fn token_of(self) -> Self::Token;
    /// All ones where the lanes are equal.
    fn simd_eq(self, o: Self) -> Self;
    /// The lane-wise (unsigned) maximum.
    fn max(self, o: Self) -> Self;
    /// The lane-wise (unsigned) minimum.
    fn min(self, o: Self) -> Self;
    /// `self + o` lane by lane, 255 where the sum is larger.
    fn saturating_add(self, o: Self) -> Self;
    /// All ones where `self > o`, the lanes read as signed bytes.
    fn gt_signed(self, o: Self) -> Self;
    /// `a` in the lanes where `self` is all ones, `b` where it is zero (`self` a lane mask).
    fn select(self, a: Self, b: Self) -> Self;
    /// The top bit of each lane.
    fn to_bitmask(self) -> u32;
    /// All ones in the lanes whose bit is set in `m`.
    fn from_bitmask(t: Self::Token, m: u32) -> Self;
    fn as_array(&self) -> &[u8; 32];
    fn as_mut_array(&mut self) -> &mut [u8; 32];
}

impl LaneVec for wide::u8x32 {
    /// The portable build runs everywhere.
    type Token = ();
    #[inline(always)]
    fn splat((): (), x: u8) -> Self {
        wide::u8x32::splat(x)
    }
    #[inline(always)]
    fn new((): (), a: [u8; 32]) -> Self {
        wide::u8x32::new(a)
    }
    #[inline(always)]
    fn token_of(self) {}
    #[inline(always)]
    fn simd_eq(self, o: Self) -> Self {
        wide::u8x32::simd_eq(self, o)
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        wide::u8x32::max(self, o)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        wide::u8x32::min(self, o)
    }
    #[inline(always)]
    fn saturating_add(self, o: Self) -> Self {
        wide::u8x32::saturating_add(self, o)
    }
    #[inline(always)]
    fn gt_signed(self, o: Self) -> Self {
        // Flipping the sign bits orders signed bytes as unsigned ones.
        let flip = wide::u8x32::splat(0x80);
        let (a, b) = (self ^ flip, o ^ flip);
        !wide::u8x32::max(b, a).simd_eq(b)
    }
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        (a & self) | (b & !self)
    }
    #[inline(always)]
    fn to_bitmask(self) -> u32 {
        wide::u8x32::to_bitmask(self)
    }
    #[inline(always)]
    fn from_bitmask((): (), m: u32) -> Self {
        wide::u8x32::new(std::array::from_fn(|l| {
            0u8.wrapping_sub((m >> l & 1) as u8)
        }))
    }
    #[inline(always)]
    fn as_array(&self) -> &[u8; 32] {
        wide::u8x32::as_array(self)
    }
    #[inline(always)]
    fn as_mut_array(&mut self) -> &mut [u8; 32] {
        wide::u8x32::as_mut_array(self)
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use avx2::{Avx2, Avx2Token};

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! SAFETY: an [`Avx2`] value is only made from an [`Avx2Token`], and a token only by
    //! [`Avx2Token::detect`] after `is_x86_feature_detected!("avx2")` returned true, so the
    //! AVX2 instructions its operations use are there to execute.

    use super::LaneVec;
    use std::arch::x86_64::*;
    use std::ops::{Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

    /// The proof that this processor has AVX2: only [`detect`](Self::detect) makes one.
    #[derive(Clone, Copy, Debug)]
    pub(in crate::sowing) struct Avx2Token(());

    impl Avx2Token {
        /// A token when the processor has AVX2 (and POPCNT, which its builds use too).
        pub(in crate::sowing) fn detect() -> Option<Avx2Token> {
            (std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt"))
                .then_some(Avx2Token(()))
        }
    }

    /// 32 lanes of bytes in one AVX2 register.
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(in crate::sowing) struct Avx2(__m256i);

    macro_rules! binary {
        ($tr:ident, $f:ident, $tra:ident, $fa:ident, $intr:ident) => {
            impl $tr for Avx2 {
                type Output = Avx2;
                #[inline(always)]
                fn $f(self, o: Avx2) -> Avx2 {
                    // SAFETY: see the module.
                    Avx2(unsafe { $intr(self.0, o.0) })
                }
            }
            impl $tra for Avx2 {
                #[inline(always)]
                fn $fa(&mut self, o: Avx2) {
                    *self = $tr::$f(*self, o);
                }
            }
        };
    }
    binary!(
        BitAnd,
        bitand,
        BitAndAssign,
        bitand_assign,
        _mm256_and_si256
    );
    binary!(BitOr, bitor, BitOrAssign, bitor_assign, _mm256_or_si256);
    binary!(Add, add, AddAssign, add_assign, _mm256_add_epi8);
    binary!(Sub, sub, SubAssign, sub_assign, _mm256_sub_epi8);

    /// Methods of [`LaneVec`] that are one intrinsic on two vectors.
    macro_rules! lanewise {
        ($($f:ident => $intr:ident),* $(,)?) => {
            $(
                #[inline(always)]
                fn $f(self, o: Self) -> Self {
                    // SAFETY: see the module.
                    Avx2(unsafe { $intr(self.0, o.0) })
                }
            )*
        };
    }

    impl Not for Avx2 {
        type Output = Avx2;
        #[inline(always)]
        fn not(self) -> Avx2 {
            // SAFETY: see the module.
            Avx2(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi8(-1)) })
        }
    }

    impl LaneVec for Avx2 {
        type Token = Avx2Token;
        #[inline(always)]
        fn splat(_: Avx2Token, x: u8) -> Self {
            // SAFETY: see the module.
            Avx2(unsafe { _mm256_set1_epi8(x as i8) })
        }
        #[inline(always)]
        fn token_of(self) -> Avx2Token {
            // A vector exists only where a token did.
            Avx2Token(())
        }
        #[inline(always)]
        fn new(_: Avx2Token, a: [u8; 32]) -> Self {
            // SAFETY: see the module; the load reads the 32 bytes of `a`.
            Avx2(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) })
        }
        lanewise!(
            simd_eq => _mm256_cmpeq_epi8,
            max => _mm256_max_epu8,
            min => _mm256_min_epu8,
            saturating_add => _mm256_adds_epu8,
            gt_signed => _mm256_cmpgt_epi8,
        );
        #[inline(always)]
        fn select(self, a: Self, b: Self) -> Self {
            // SAFETY: see the module. A lane mask's top bit is the lane's whole mask.
            Avx2(unsafe { _mm256_blendv_epi8(b.0, a.0, self.0) })
        }
        #[inline(always)]
        fn to_bitmask(self) -> u32 {
            // SAFETY: see the module.
            unsafe { _mm256_movemask_epi8(self.0) as u32 }
        }
        #[inline(always)]
        fn from_bitmask(_: Avx2Token, m: u32) -> Self {
            // SAFETY: see the module. Lane l takes byte l / 8 of `m` and tests bit l % 8.
            unsafe {
                let bytes = _mm256_shuffle_epi8(
                    _mm256_set1_epi32(m as i32),
                    _mm256_setr_epi64x(
                        0,
                        0x0101_0101_0101_0101,
                        0x0202_0202_0202_0202,
                        0x0303_0303_0303_0303,
                    ),
                );
                let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
                Avx2(_mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit))
            }
        }
        #[inline(always)]
        fn as_array(&self) -> &[u8; 32] {
            // SAFETY: `__m256i` is 32 bytes, every bit pattern a valid `[u8; 32]`, and its
            // alignment larger.
            unsafe { &*(self as *const Avx2).cast::<[u8; 32]>() }
        }
        #[inline(always)]
        fn as_mut_array(&mut self) -> &mut [u8; 32] {
            // SAFETY: as for `as_array`.
            unsafe { &mut *(self as *mut Avx2).cast::<[u8; 32]>() }
        }
    }
}
