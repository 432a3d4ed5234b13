/*
 * Multi-scalar multiplication on secp256k1 for public inputs: sum k_i * P_i.
 *
 * A verifier's checks are sums of many products (a proof of shuffle over N
 * ciphertexts rebuilds three sums of 2N + 1 terms each; a share batch two sums of
 * one term per share). libsecp256k1 computes such sums internally (Strauss and
 * Pippenger), but its public interface multiplies one point at a time, so every
 * term pays for its own 256 doublings. Here the terms share them (Strauss'
 * interleaving): each point gets a small table of odd multiples, each scalar a
 * signed window form (wNAF, window 5, so about one addition per six bits), and one
 * running sum is doubled 256 times, adding a table entry wherever a digit is set.
 *
 * Variable time by design: every input is public (the callers only ever pass a
 * verifier's values). The prover keeps libsecp256k1.
 *
 * Field elements are four 64-bit limbs, least significant first, always reduced
 * below p = 2^256 - 2^32 - 977; a product folds its high half back with
 * 2^256 = 2^32 + 977 (mod p). Points are Jacobian (X, Y, Z) with an explicit flag
 * for infinity; the tables are brought to affine form with one shared inversion so
 * that the main loop uses the cheaper mixed addition.
 *
 * Python interface: msm(points, scalars) -> bytes | None, where points is n
 * concatenated 64-byte affine encodings (x || y, big-endian) and scalars n 32-byte
 * big-endian integers; the result is the sum's 64-byte encoding, or None for the
 * point at infinity. A point not on the curve raises ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

typedef struct { uint64_t v[4]; } fe;
typedef struct { fe x, y, z; int inf; } gej;
typedef struct { fe x, y; } ge;

#define WINDOW 5
#define TABLE (1 << (WINDOW - 2))   /* odd multiples 1P, 3P, ..., 15P */
#define DIGITS 260
#define MAX_TERMS 4096

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

/* Signed digits of k (wNAF): each non-zero digit odd, |d| < 2^(WINDOW-1), and at
 * least WINDOW - 1 zeros after each. Returns the number of digits. */
static int wnaf(signed char *out, const unsigned char *scalar) {
    uint64_t k[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 8; j++) {
            k[i] = (k[i] << 8) | scalar[(3 - i) * 8 + j];
        }
    }
    memset(out, 0, DIGITS);
    int len = 0;
    while (k[0] | k[1] | k[2] | k[3] | k[4]) {
        if (k[0] & 1) {
            int d = (int)(k[0] & ((1u << WINDOW) - 1));
            if (d >= (1 << (WINDOW - 1))) {
                d -= 1 << WINDOW;
            }
            out[len] = (signed char)d;
            if (d > 0) {
                k[0] -= (uint64_t)d;   /* the low bits are d: no borrow */
            } else {
                u128 acc = (u128)k[0] + (uint64_t)(-d);
                k[0] = (uint64_t)acc;
                for (int i = 1; i < 5 && (acc >> 64); i++) {
                    acc = (u128)k[i] + 1;
                    k[i] = (uint64_t)acc;
                }
            }
        }
        for (int i = 0; i < 4; i++) {
            k[i] = (k[i] >> 1) | (k[i + 1] << 63);
        }
        k[4] >>= 1;
        len++;
    }
    return len;
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

/* The sum over the n terms; 0 when it is infinity, 1 with r set otherwise. */
static int strauss(ge *r, const ge *points, const unsigned char *scalars, size_t n,
                   ge *table, gej *work, fe *scratch, signed char *digits, int *lengths) {
    int longest = 0;
    for (size_t i = 0; i < n; i++) {
        gej p = {points[i].x, points[i].y, {{1, 0, 0, 0}}, 0}, twice;
        gej_double(&twice, &p);
        work[i * TABLE] = p;
        for (int m = 1; m < TABLE; m++) {
            gej_add(&work[i * TABLE + m], &work[i * TABLE + m - 1], &twice);
        }
        lengths[i] = wnaf(digits + i * DIGITS, scalars + 32 * i);
        if (lengths[i] > longest) {
            longest = lengths[i];
        }
    }
    batch_affine(table, work, n * TABLE, scratch);
    gej sum = {{{0}}, {{0}}, {{0}}, 1};
    for (int bit = longest - 1; bit >= 0; bit--) {
        gej_double(&sum, &sum);
        for (size_t i = 0; i < n; i++) {
            int d = bit < lengths[i] ? digits[i * DIGITS + bit] : 0;
            if (d > 0) {
                gej_add_ge(&sum, &sum, &table[i * TABLE + (d - 1) / 2], 0);
            } else if (d < 0) {
                gej_add_ge(&sum, &sum, &table[i * TABLE + (-d - 1) / 2], 1);
            }
        }
    }
    if (sum.inf) {
        return 0;
    }
    fe zi, zi2, zi3;
    fe_inv(&zi, &sum.z);
    fe_sqr(&zi2, &zi);
    fe_mul(&zi3, &zi2, &zi);
    fe_mul(&r->x, &sum.x, &zi2);
    fe_mul(&r->y, &sum.y, &zi3);
    return 1;
}

static PyObject *msm(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer points_buf, scalars_buf;
    if (!PyArg_ParseTuple(args, "y*y*", &points_buf, &scalars_buf)) {
        return NULL;
    }
    PyObject *result = NULL;
    size_t n = (size_t)points_buf.len / 64;
    ge *points = NULL, *table = NULL;
    gej *work = NULL;
    fe *scratch = NULL;
    signed char *digits = NULL;
    int *lengths = NULL;
    if (points_buf.len % 64 != 0 || scalars_buf.len != (Py_ssize_t)(32 * n) || n == 0
            || n > MAX_TERMS) {
        PyErr_SetString(PyExc_ValueError,
                        "msm wants n 64-byte points and n 32-byte scalars, 1 <= n <= 4096");
        goto done;
    }
    points = PyMem_Malloc(n * sizeof(ge));
    table = PyMem_Malloc(n * TABLE * sizeof(ge));
    work = PyMem_Malloc(n * TABLE * sizeof(gej));
    scratch = PyMem_Malloc(n * TABLE * sizeof(fe));
    digits = PyMem_Malloc(n * DIGITS);
    lengths = PyMem_Malloc(n * sizeof(int));
    if (!points || !table || !work || !scratch || !digits || !lengths) {
        PyErr_NoMemory();
        goto done;
    }
    const unsigned char *raw = points_buf.buf;
    for (size_t i = 0; i < n; i++) {
        if (!fe_from_bytes(&points[i].x, raw + 64 * i)
                || !fe_from_bytes(&points[i].y, raw + 64 * i + 32) || !on_curve(&points[i])) {
            PyErr_SetString(PyExc_ValueError, "msm: a point is not on the curve");
            goto done;
        }
    }
    ge sum;
    int finite;
    Py_BEGIN_ALLOW_THREADS
    finite = strauss(&sum, points, scalars_buf.buf, n, table, work, scratch, digits, lengths);
    Py_END_ALLOW_THREADS
    if (!finite) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    unsigned char out[64];
    fe_to_bytes(out, &sum.x);
    fe_to_bytes(out + 32, &sum.y);
    result = PyBytes_FromStringAndSize((const char *)out, 64);
done:
    PyMem_Free(points);
    PyMem_Free(table);
    PyMem_Free(work);
    PyMem_Free(scratch);
    PyMem_Free(digits);
    PyMem_Free(lengths);
    PyBuffer_Release(&points_buf);
    PyBuffer_Release(&scalars_buf);
    return result;
}

static PyMethodDef methods[] = {
    {"msm", msm, METH_VARARGS,
     "msm(points, scalars) -> bytes | None: the sum of k_i * P_i (public inputs only)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_msm",
    "Multi-scalar multiplication on secp256k1 for a verifier's public inputs.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__msm(void) {
    return PyModule_Create(&module);
}
