/*
 * secp256k1 field and point arithmetic for the verifier's native sums (_msm.c).
 *
 * Field elements are four 64-bit limbs, least significant first, always reduced
 * below p = 2^256 - 2^32 - 977; a product folds its high half back with
 * 2^256 = 2^32 + 977 (mod p). Points are Jacobian (X, Y, Z) with an explicit flag
 * for infinity, or affine (x, y). Variable time: every input is public.
 */
#ifndef LODAM_CURVE_H
#define LODAM_CURVE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

typedef struct { uint64_t v[4]; } fe;
typedef struct { fe x, y, z; int inf; } gej;
typedef struct { fe x, y; } ge;

static const uint64_t P0 = 0xFFFFFFFEFFFFFC2FULL;
static const uint64_t FOLD = 0x1000003D1ULL;   /* 2^256 - p */

static int fe_is_zero(const fe *a) {
    return (a->v[0] | a->v[1] | a->v[2] | a->v[3]) == 0;
}

static int fe_equal(const fe *a, const fe *b) {
    return a->v[0] == b->v[0] && a->v[1] == b->v[1] && a->v[2] == b->v[2]
        && a->v[3] == b->v[3];
}

static int fe_at_least_p(const fe *a) {
    return a->v[3] == UINT64_MAX && a->v[2] == UINT64_MAX && a->v[1] == UINT64_MAX
        && a->v[0] >= P0;
}

/* a - p, for p <= a < 2^256: the same as a + (2^256 - p), dropping the carry. */
static void fe_reduce_once(fe *a) {
    if (fe_at_least_p(a)) {
        u128 acc = (u128)a->v[0] + FOLD;
        a->v[0] = (uint64_t)acc;
        acc >>= 64;
        for (int i = 1; i < 4; i++) {
            acc += a->v[i];
            a->v[i] = (uint64_t)acc;
            acc >>= 64;
        }
    }
}

static void fe_add(fe *r, const fe *a, const fe *b) {
    u128 acc = (u128)a->v[0] + b->v[0];
    fe s;
    s.v[0] = (uint64_t)acc;
    acc = (acc >> 64) + a->v[1] + b->v[1];
    s.v[1] = (uint64_t)acc;
    acc = (acc >> 64) + a->v[2] + b->v[2];
    s.v[2] = (uint64_t)acc;
    acc = (acc >> 64) + a->v[3] + b->v[3];
    s.v[3] = (uint64_t)acc;
    if (acc >> 64) {   /* a + b = s + 2^256 = s + FOLD (mod p); s is small enough to take it */
        acc = (u128)s.v[0] + FOLD;
        s.v[0] = (uint64_t)acc;
        acc = (acc >> 64) + s.v[1];
        s.v[1] = (uint64_t)acc;
        acc = (acc >> 64) + s.v[2];
        s.v[2] = (uint64_t)acc;
        s.v[3] += (uint64_t)(acc >> 64);
    }
    fe_reduce_once(&s);
    *r = s;
}

static void fe_sub(fe *r, const fe *a, const fe *b) {
    u128 acc = (u128)a->v[0] - b->v[0];
    fe d;
    d.v[0] = (uint64_t)acc;
    acc = (u128)a->v[1] - b->v[1] - (uint64_t)(acc >> 127);
    d.v[1] = (uint64_t)acc;
    acc = (u128)a->v[2] - b->v[2] - (uint64_t)(acc >> 127);
    d.v[2] = (uint64_t)acc;
    acc = (u128)a->v[3] - b->v[3] - (uint64_t)(acc >> 127);
    d.v[3] = (uint64_t)acc;
    if (acc >> 127) {   /* d = a - b + 2^256; want a - b + p = d - FOLD (no further borrow) */
        acc = (u128)d.v[0] - FOLD;
        d.v[0] = (uint64_t)acc;
        acc = (u128)d.v[1] - (uint64_t)(acc >> 127);
        d.v[1] = (uint64_t)acc;
        acc = (u128)d.v[2] - (uint64_t)(acc >> 127);
        d.v[2] = (uint64_t)acc;
        d.v[3] -= (uint64_t)(acc >> 127);
    }
    *r = d;
}

/* a * b: the schoolbook product written out row by row (the compiler keeps every limb
 * in a register; the looped form measured a quarter slower), then the 512-bit result
 * folded twice with 2^256 = FOLD (mod p). */
static void fe_mul(fe *r, const fe *a, const fe *b) {
    const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    const uint64_t b0 = b->v[0], b1 = b->v[1], b2 = b->v[2], b3 = b->v[3];
    uint64_t t[8];
    u128 c;
    c = (u128)a0 * b0; t[0] = (uint64_t)c; c >>= 64;
    c += (u128)a0 * b1; t[1] = (uint64_t)c; c >>= 64;
    c += (u128)a0 * b2; t[2] = (uint64_t)c; c >>= 64;
    c += (u128)a0 * b3; t[3] = (uint64_t)c; t[4] = (uint64_t)(c >> 64);
    c = (u128)a1 * b0 + t[1]; t[1] = (uint64_t)c; c >>= 64;
    c += (u128)a1 * b1 + t[2]; t[2] = (uint64_t)c; c >>= 64;
    c += (u128)a1 * b2 + t[3]; t[3] = (uint64_t)c; c >>= 64;
    c += (u128)a1 * b3 + t[4]; t[4] = (uint64_t)c; t[5] = (uint64_t)(c >> 64);
    c = (u128)a2 * b0 + t[2]; t[2] = (uint64_t)c; c >>= 64;
    c += (u128)a2 * b1 + t[3]; t[3] = (uint64_t)c; c >>= 64;
    c += (u128)a2 * b2 + t[4]; t[4] = (uint64_t)c; c >>= 64;
    c += (u128)a2 * b3 + t[5]; t[5] = (uint64_t)c; t[6] = (uint64_t)(c >> 64);
    c = (u128)a3 * b0 + t[3]; t[3] = (uint64_t)c; c >>= 64;
    c += (u128)a3 * b1 + t[4]; t[4] = (uint64_t)c; c >>= 64;
    c += (u128)a3 * b2 + t[5]; t[5] = (uint64_t)c; c >>= 64;
    c += (u128)a3 * b3 + t[6]; t[6] = (uint64_t)c; t[7] = (uint64_t)(c >> 64);
    /* t_low + t_high * FOLD stays below 2^256 * 2^34; then the top, once more */
    fe s;
    u128 acc = (u128)t[4] * FOLD + t[0]; s.v[0] = (uint64_t)acc; acc >>= 64;
    acc += (u128)t[5] * FOLD + t[1]; s.v[1] = (uint64_t)acc; acc >>= 64;
    acc += (u128)t[6] * FOLD + t[2]; s.v[2] = (uint64_t)acc; acc >>= 64;
    acc += (u128)t[7] * FOLD + t[3]; s.v[3] = (uint64_t)acc; acc >>= 64;
    acc = acc * FOLD + s.v[0]; s.v[0] = (uint64_t)acc; acc >>= 64;
    acc += s.v[1]; s.v[1] = (uint64_t)acc; acc >>= 64;
    acc += s.v[2]; s.v[2] = (uint64_t)acc; acc >>= 64;
    acc += s.v[3]; s.v[3] = (uint64_t)acc; acc >>= 64;
    if (acc) {   /* wrapped past 2^256: what is left is tiny, and takes FOLD without carry */
        acc = (u128)s.v[0] + FOLD;
        s.v[0] = (uint64_t)acc;
        s.v[1] += (uint64_t)(acc >> 64);
    }
    fe_reduce_once(&s);
    *r = s;
}

/* A dedicated squaring (10 products instead of 16) measured slower here than this. */
static void fe_sqr(fe *r, const fe *a) {
    fe_mul(r, a, a);
}

/* a^(p-2) = 1/a (a != 0), by square and multiply over the bits of p - 2. */
static void fe_inv(fe *r, const fe *a) {
    static const uint64_t e[4] = {0xFFFFFFFEFFFFFC2DULL, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    fe x = {{1, 0, 0, 0}};
    for (int i = 255; i >= 0; i--) {
        fe_sqr(&x, &x);
        if ((e[i / 64] >> (i % 64)) & 1) {
            fe_mul(&x, &x, a);
        }
    }
    *r = x;
}

static int fe_from_bytes(fe *r, const unsigned char *in) {
    for (int i = 0; i < 4; i++) {
        uint64_t limb = 0;
        for (int j = 0; j < 8; j++) {
            limb = (limb << 8) | in[(3 - i) * 8 + j];
        }
        r->v[i] = limb;
    }
    return !fe_at_least_p(r);
}

static void fe_to_bytes(unsigned char *out, const fe *a) {
    for (int i = 0; i < 4; i++) {
        uint64_t limb = a->v[i];
        for (int j = 7; j >= 0; j--) {
            out[(3 - i) * 8 + j] = (unsigned char)limb;
            limb >>= 8;
        }
    }
}

/* --- points ------------------------------------------------------------------- */

static void gej_double(gej *r, const gej *a) {
    if (a->inf) {
        r->inf = 1;
        return;
    }
    /* a = 0 curve: A = X^2, B = Y^2, C = B^2, D = 2((X + B)^2 - A - C), E = 3A */
    fe A, B, C, D, E, F, t, x3, y3, z3;
    fe_sqr(&A, &a->x);
    fe_sqr(&B, &a->y);
    fe_sqr(&C, &B);
    fe_add(&t, &a->x, &B);
    fe_sqr(&t, &t);
    fe_sub(&t, &t, &A);
    fe_sub(&t, &t, &C);
    fe_add(&D, &t, &t);
    fe_add(&E, &A, &A);
    fe_add(&E, &E, &A);
    fe_sqr(&F, &E);
    fe_add(&t, &D, &D);
    fe_sub(&x3, &F, &t);
    fe_sub(&t, &D, &x3);
    fe_mul(&y3, &E, &t);
    fe_add(&C, &C, &C);
    fe_add(&C, &C, &C);
    fe_add(&C, &C, &C);
    fe_sub(&y3, &y3, &C);
    fe_mul(&z3, &a->y, &a->z);
    fe_add(&z3, &z3, &z3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
    r->inf = 0;
}

/* The common end of both additions. With U1 = X1*Z2^2, S1 = Y1*Z2^3, H = U2 - U1 and
 * R = S2 - S1 (the second point's U2, S2 scaled alike), and z = Z1*Z2: H = 0 means the
 * same x, so the points are equal (R = 0: double) or opposite (infinity). */
static void add_tail(gej *r, const gej *a, const fe *u1, const fe *s1, const fe *h,
                     const fe *rr, const fe *z) {
    if (fe_is_zero(h)) {
        if (fe_is_zero(rr)) {
            gej_double(r, a);
        } else {
            r->inf = 1;
        }
        return;
    }
    fe hh, hhh, v, t, x3, y3, z3;
    fe_sqr(&hh, h);
    fe_mul(&hhh, h, &hh);
    fe_mul(&v, u1, &hh);
    fe_sqr(&x3, rr);
    fe_sub(&x3, &x3, &hhh);
    fe_sub(&x3, &x3, &v);
    fe_sub(&x3, &x3, &v);
    fe_sub(&t, &v, &x3);
    fe_mul(&y3, rr, &t);
    fe_mul(&t, s1, &hhh);
    fe_sub(&y3, &y3, &t);
    fe_mul(&z3, z, h);
    r->x = x3;
    r->y = y3;
    r->z = z3;
    r->inf = 0;
}

/* r = a + b, both Jacobian; handles equal and opposite points. */
static void gej_add(gej *r, const gej *a, const gej *b) {
    if (a->inf) {
        *r = *b;
        return;
    }
    if (b->inf) {
        *r = *a;
        return;
    }
    fe z1z1, z2z2, u1, u2, s1, s2, h, rr, z;
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s1, &a->y, &b->z);
    fe_mul(&s1, &s1, &z2z2);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    fe_mul(&z, &a->z, &b->z);
    add_tail(r, a, &u1, &s1, &h, &rr, &z);
}

/* r = a + b for affine b (negated when neg is set); handles equal and opposite. */
static void gej_add_ge(gej *r, const gej *a, const ge *b, int neg) {
    fe by = b->y;
    if (neg) {
        fe zero = {{0, 0, 0, 0}};
        fe_sub(&by, &zero, &b->y);
    }
    if (a->inf) {
        r->x = b->x;
        r->y = by;
        r->z = (fe){{1, 0, 0, 0}};
        r->inf = 0;
        return;
    }
    fe z1z1, u2, s2, h, rr;
    fe_sqr(&z1z1, &a->z);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s2, &by, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &a->x);
    fe_sub(&rr, &s2, &a->y);
    add_tail(r, a, &a->x, &a->y, &h, &rr, &a->z);
}

static int on_curve(const ge *p) {
    fe y2, x3, seven = {{7, 0, 0, 0}};
    fe_sqr(&y2, &p->y);
    fe_sqr(&x3, &p->x);
    fe_mul(&x3, &x3, &p->x);
    fe_add(&x3, &x3, &seven);
    return fe_equal(&y2, &x3);
}

/* Affine forms of n Jacobian points (none at infinity), with one inversion. */
static void batch_affine(ge *out, const gej *in, size_t n, fe *scratch) {
    fe acc = {{1, 0, 0, 0}};
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        fe_mul(&acc, &acc, &in[i].z);
    }
    fe inv;
    fe_inv(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        fe zi, zi2, zi3;
        fe_mul(&zi, &inv, &scratch[i]);
        fe_mul(&inv, &inv, &in[i].z);
        fe_sqr(&zi2, &zi);
        fe_mul(&zi3, &zi2, &zi);
        fe_mul(&out[i].x, &in[i].x, &zi2);
        fe_mul(&out[i].y, &in[i].y, &zi3);
    }
}

/* Whether Jacobian a is the affine point b (no inversion: X = x·Z^2, Y = y·Z^3). */
static int gej_equals_ge(const gej *a, const ge *b) {
    if (a->inf) {
        return 0;
    }
    fe z2, z3, t;
    fe_sqr(&z2, &a->z);
    fe_mul(&t, &b->x, &z2);
    if (!fe_equal(&t, &a->x)) {
        return 0;
    }
    fe_mul(&z3, &z2, &a->z);
    fe_mul(&t, &b->y, &z3);
    return fe_equal(&t, &a->y);
}

/* A 64-byte affine encoding (x || y, big-endian) of a curve point. */
static int ge_from_bytes(ge *r, const unsigned char *in) {
    return fe_from_bytes(&r->x, in) && fe_from_bytes(&r->y, in + 32) && on_curve(r);
}

#endif
