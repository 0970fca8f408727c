//! The vectors of 64 byte lanes the lanes ([`lanes`](super::lanes)) compute with: on x86-64
//! processors with AVX-512 (BW) one 512-bit register whose every operation is one instruction;
//! elsewhere a pair of 32-byte vectors ([`Two`]): AVX2 registers where the processor has AVX2,
//! `wide`'s portable `u8x32` everywhere (the instructions are chosen at run time, as `wide`
//! itself is built for the baseline target). Every build plays 64 games at once, so that all
//! hand games out and back in the same order.
//!
//! A vector is only made from a [`LaneVec::Token`]: for the AVX2 and AVX-512 types that is a
//! token only the processor's feature detection hands out, so no safe code can run those
//! instructions on a processor without them.

use std::ops::{Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// Lanes in a vector.
pub(super) const WIDTH: usize = 64;

/// The operations of the lanes' vectors; `Lanes` is the width ([`WIDTH`] for [`LaneVec`], 32
/// for the halves of a [`Two`]), `Mask` one bit per lane.
macro_rules! lane_ops {
    ($lanes:expr, $mask:ty) => {
        /// The proof that the processor runs this type's instructions.
        type Token: Copy;
        /// Every lane `x`.
        fn splat(t: Self::Token, x: u8) -> Self;
        /// The lanes of `a`.
        fn new(t: Self::Token, a: [u8; $lanes]) -> Self;
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
        fn to_bitmask(self) -> $mask;
        /// All ones in the lanes whose bit is set in `m`.
        fn from_bitmask(t: Self::Token, m: $mask) -> Self;
    };
}

/// [`WIDTH`] lanes of bytes.
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
    lane_ops!(WIDTH, u64);
    fn as_array(&self) -> &[u8; WIDTH];
    fn as_mut_array(&mut self) -> &mut [u8; WIDTH];
    /// Every lane `x`, on the proof that `self` was made with.
    #[inline(always)]
    fn same(self, x: u8) -> Self {
        Self::splat(self.token_of(), x)
    }
}

/// 32 lanes of bytes: half a [`LaneVec`].
///
/// # Safety
/// A value is 32 bytes, lane `l` in byte `l`, and every bit pattern is a valid value.
pub(super) unsafe trait Half:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
{
    lane_ops!(32, u32);
}

/// Two halves of 32 lanes, lanes 0 to 31 in the first.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Two<H>([H; 2]);

macro_rules! two_binary {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident) => {
        impl<H: Half> $tr for Two<H> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Two([self.0[0].$f(o.0[0]), self.0[1].$f(o.0[1])])
            }
        }
        impl<H: Half> $tra for Two<H> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                *self = $tr::$f(*self, o);
            }
        }
    };
}
two_binary!(BitAnd, bitand, BitAndAssign, bitand_assign);
two_binary!(BitOr, bitor, BitOrAssign, bitor_assign);
two_binary!(Add, add, AddAssign, add_assign);
two_binary!(Sub, sub, SubAssign, sub_assign);

impl<H: Half> Not for Two<H> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Two([!self.0[0], !self.0[1]])
    }
}

/// Methods of [`LaneVec`] that apply a [`Half`]'s on two vectors to each half.
macro_rules! halfwise {
    ($($f:ident),* $(,)?) => {
        $(
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Two([self.0[0].$f(o.0[0]), self.0[1].$f(o.0[1])])
            }
        )*
    };
}

impl<H: Half> LaneVec for Two<H> {
    type Token = H::Token;
    #[inline(always)]
    fn splat(t: H::Token, x: u8) -> Self {
        Two([H::splat(t, x); 2])
    }
    #[inline(always)]
    fn new(t: H::Token, a: [u8; WIDTH]) -> Self {
        let (lo, hi) = a.split_at(32);
        let half = |b: &[u8]| H::new(t, b.try_into().expect("32 lanes"));
        Two([half(lo), half(hi)])
    }
    #[inline(always)]
    fn token_of(self) -> H::Token {
        self.0[0].token_of()
    }
    halfwise!(simd_eq, max, min, saturating_add, gt_signed);
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        Two([
            self.0[0].select(a.0[0], b.0[0]),
            self.0[1].select(a.0[1], b.0[1]),
        ])
    }
    #[inline(always)]
    fn to_bitmask(self) -> u64 {
        self.0[0].to_bitmask() as u64 | (self.0[1].to_bitmask() as u64) << 32
    }
    #[inline(always)]
    fn from_bitmask(t: H::Token, m: u64) -> Self {
        Two([
            H::from_bitmask(t, m as u32),
            H::from_bitmask(t, (m >> 32) as u32),
        ])
    }
    #[inline(always)]
    fn as_array(&self) -> &[u8; WIDTH] {
        // SAFETY: `Two` is two `H`, each 32 bytes with its lanes in order and any bits valid
        // (`Half`'s contract), so 64 bytes of lanes in order; the alignment of `u8` is 1.
        unsafe { &*(self as *const Self).cast::<[u8; WIDTH]>() }
    }
    #[inline(always)]
    fn as_mut_array(&mut self) -> &mut [u8; WIDTH] {
        // SAFETY: as for `as_array`.
        unsafe { &mut *(self as *mut Self).cast::<[u8; WIDTH]>() }
    }
}

// SAFETY: `u8x32` is 32 bytes in lane order (`#[repr(C, align(32))]` over `[u8; 32]` or its
// vector registers), any bits valid.
unsafe impl Half for wide::u8x32 {
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
}

/// The operators of a vector type that wraps one register (`&`, `|`, `+`, `-` lane by lane,
/// with their assigning forms, and `!`), each one intrinsic: and, or, add, sub, xor, set1.
/// Used inside a module whose SAFETY note covers the intrinsics.
#[cfg(target_arch = "x86_64")]
macro_rules! register_ops {
    ($t:ident: $and:ident, $or:ident, $add:ident, $sub:ident, $xor:ident, $set1:ident) => {
        register_ops!(@binary $t, BitAnd, bitand, BitAndAssign, bitand_assign, $and);
        register_ops!(@binary $t, BitOr, bitor, BitOrAssign, bitor_assign, $or);
        register_ops!(@binary $t, Add, add, AddAssign, add_assign, $add);
        register_ops!(@binary $t, Sub, sub, SubAssign, sub_assign, $sub);
        impl Not for $t {
            type Output = $t;
            #[inline(always)]
            fn not(self) -> $t {
                // SAFETY: see the module.
                $t(unsafe { $xor(self.0, $set1(-1)) })
            }
        }
    };
    (@binary $t:ident, $tr:ident, $f:ident, $tra:ident, $fa:ident, $intr:ident) => {
        impl $tr for $t {
            type Output = $t;
            #[inline(always)]
            fn $f(self, o: $t) -> $t {
                // SAFETY: see the module.
                $t(unsafe { $intr(self.0, o.0) })
            }
        }
        impl $tra for $t {
            #[inline(always)]
            fn $fa(&mut self, o: $t) {
                *self = $tr::$f(*self, o);
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
pub(super) use avx2::{Avx2, Avx2Token};

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! SAFETY: an [`Avx2`] value is only made from an [`Avx2Token`], and a token only by
    //! [`Avx2Token::detect`] after `is_x86_feature_detected!("avx2")` returned true, so the
    //! AVX2 instructions its operations use are there to execute.

    use super::Half;
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

    register_ops!(Avx2: _mm256_and_si256, _mm256_or_si256, _mm256_add_epi8, _mm256_sub_epi8,
        _mm256_xor_si256, _mm256_set1_epi8);

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

    // SAFETY: `Avx2` is one `__m256i`: 32 bytes in lane order, any bits valid.
    unsafe impl Half for Avx2 {
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
    }
}

const _: () = assert!(std::mem::size_of::<wide::u8x32>() == 32);

#[cfg(target_arch = "x86_64")]
pub(super) use avx512::{Avx512, Avx512Token};

#[cfg(target_arch = "x86_64")]
mod avx512 {
    //! SAFETY: an [`Avx512`] value is only made from an [`Avx512Token`], and a token only by
    //! [`Avx512Token::detect`] after `is_x86_feature_detected!` found the features the
    //! operations and the lanes' AVX-512 build use, so the instructions are there to execute.

    use super::{LaneVec, WIDTH};
    use std::arch::x86_64::*;
    use std::ops::{Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

    /// The proof that this processor has AVX-512 F, BW, VL and DQ (and AVX2 and POPCNT): only
    /// [`detect`](Self::detect) makes one.
    #[derive(Clone, Copy, Debug)]
    pub(in crate::sowing) struct Avx512Token(());

    impl Avx512Token {
        /// A token when the processor has the features.
        pub(in crate::sowing) fn detect() -> Option<Avx512Token> {
            (std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("popcnt"))
            .then_some(Avx512Token(()))
        }
    }

    /// 64 lanes of bytes in one AVX-512 register.
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(in crate::sowing) struct Avx512(__m512i);

    register_ops!(Avx512: _mm512_and_si512, _mm512_or_si512, _mm512_add_epi8, _mm512_sub_epi8,
        _mm512_xor_si512, _mm512_set1_epi8);

    /// Methods of [`LaneVec`] that are one compare of two vectors, into a lane mask.
    macro_rules! compare {
        ($($f:ident => $intr:ident),* $(,)?) => {
            $(
                #[inline(always)]
                fn $f(self, o: Self) -> Self {
                    // SAFETY: see the module.
                    Avx512(unsafe { _mm512_movm_epi8($intr(self.0, o.0)) })
                }
            )*
        };
    }

    impl LaneVec for Avx512 {
        type Token = Avx512Token;
        #[inline(always)]
        fn splat(_: Avx512Token, x: u8) -> Self {
            // SAFETY: see the module.
            Avx512(unsafe { _mm512_set1_epi8(x as i8) })
        }
        #[inline(always)]
        fn token_of(self) -> Avx512Token {
            // A vector exists only where a token did.
            Avx512Token(())
        }
        #[inline(always)]
        fn new(_: Avx512Token, a: [u8; WIDTH]) -> Self {
            // SAFETY: see the module; the load reads the 64 bytes of `a`.
            Avx512(unsafe { _mm512_loadu_si512(a.as_ptr().cast()) })
        }
        compare!(
            simd_eq => _mm512_cmpeq_epi8_mask,
            gt_signed => _mm512_cmpgt_epi8_mask,
        );
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            // SAFETY: see the module.
            Avx512(unsafe { _mm512_max_epu8(self.0, o.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            // SAFETY: see the module.
            Avx512(unsafe { _mm512_min_epu8(self.0, o.0) })
        }
        #[inline(always)]
        fn saturating_add(self, o: Self) -> Self {
            // SAFETY: see the module.
            Avx512(unsafe { _mm512_adds_epu8(self.0, o.0) })
        }
        #[inline(always)]
        fn select(self, a: Self, b: Self) -> Self {
            // SAFETY: see the module. A lane mask's top bit is the lane's whole mask.
            Avx512(unsafe { _mm512_mask_blend_epi8(_mm512_movepi8_mask(self.0), b.0, a.0) })
        }
        #[inline(always)]
        fn to_bitmask(self) -> u64 {
            // SAFETY: see the module.
            unsafe { _mm512_movepi8_mask(self.0) }
        }
        #[inline(always)]
        fn from_bitmask(_: Avx512Token, m: u64) -> Self {
            // SAFETY: see the module.
            Avx512(unsafe { _mm512_movm_epi8(m) })
        }
        #[inline(always)]
        fn as_array(&self) -> &[u8; WIDTH] {
            // SAFETY: `__m512i` is 64 bytes, every bit pattern a valid `[u8; 64]`, and its
            // alignment larger.
            unsafe { &*(self as *const Avx512).cast::<[u8; WIDTH]>() }
        }
        #[inline(always)]
        fn as_mut_array(&mut self) -> &mut [u8; WIDTH] {
            // SAFETY: as for `as_array`.
            unsafe { &mut *(self as *mut Avx512).cast::<[u8; WIDTH]>() }
        }
    }
}
