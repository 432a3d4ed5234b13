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
 * The tables are brought to affine form with one shared inversion so that the main
 * loop uses the cheaper mixed addition (the arithmetic is in _curve.h), and are kept
 * for the next sum that meets the same point (a quarter of a term's cost).
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
#include "_curve.h"

#define WINDOW 5
#define TABLE (1 << (WINDOW - 2))   /* odd multiples 1P, 3P, ..., 15P */
#define DIGITS 260
#define MAX_TERMS 4096

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

/*
 * Tables already built, kept by point. A verifier meets most points more than once:
 * a re-mask's new ciphertexts are terms of its proof of shuffle, then inputs of the
 * next one; the generators h_i are in every proof. Direct-mapped on the point's x (a collision just rebuilds), read and
 * written only while the interpreter lock is held.
 */
#define CACHE_SLOTS 4096
typedef struct { ge key; ge table[TABLE]; int used; } cached;
static cached *cache = NULL;

static cached *slot_of(const ge *p) {
    uint64_t h = p->x.v[0] ^ (p->x.v[1] >> 17) ^ (p->y.v[0] << 5);
    return &cache[h % CACHE_SLOTS];
}

static int same_point(const ge *a, const ge *b) {
    return fe_equal(&a->x, &b->x) && fe_equal(&a->y, &b->y);
}

/* Copy the tables of the points seen before into place; hit[i] says which were. */
static void recall(ge *table, char *hit, const ge *points, size_t n) {
    for (size_t i = 0; i < n; i++) {
        cached *c = slot_of(&points[i]);
        hit[i] = c->used && same_point(&c->key, &points[i]);
        if (hit[i]) {
            memcpy(&table[i * TABLE], c->table, sizeof(c->table));
        }
    }
}

static void remember(const ge *table, const char *hit, const ge *points, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!hit[i]) {
            cached *c = slot_of(&points[i]);
            c->key = points[i];
            memcpy(c->table, &table[i * TABLE], sizeof(c->table));
            c->used = 1;
        }
    }
}

/* The sum over the n terms; 0 when it is infinity, 1 with r set otherwise. The tables
 * of the terms not hit are built here (odd multiples, brought to affine form together). */
static int strauss(ge *r, const ge *points, const unsigned char *scalars, size_t n,
                   ge *table, const char *hit, gej *work, ge *fresh, fe *scratch,
                   signed char *digits, int *lengths) {
    int longest = 0;
    size_t built = 0;
    for (size_t i = 0; i < n; i++) {
        if (!hit[i]) {
            gej p = {points[i].x, points[i].y, {{1, 0, 0, 0}}, 0}, twice;
            gej *row = &work[built * TABLE];
            gej_double(&twice, &p);
            row[0] = p;
            for (int m = 1; m < TABLE; m++) {
                gej_add(&row[m], &row[m - 1], &twice);
            }
            built++;
        }
        lengths[i] = wnaf(digits + i * DIGITS, scalars + 32 * i);
        if (lengths[i] > longest) {
            longest = lengths[i];
        }
    }
    if (built) {
        batch_affine(fresh, work, built * TABLE, scratch);
        for (size_t i = 0, j = 0; i < n; i++) {
            if (!hit[i]) {
                memcpy(&table[i * TABLE], &fresh[j++ * TABLE], TABLE * sizeof(ge));
            }
        }
    }
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
    ge *points = NULL, *table = NULL, *fresh = NULL;
    gej *work = NULL;
    char *hit = NULL;
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
    fresh = PyMem_Malloc(n * TABLE * sizeof(ge));
    hit = PyMem_Malloc(n);
    if (cache == NULL) {
        cache = PyMem_Calloc(CACHE_SLOTS, sizeof(cached));
    }
    if (!points || !table || !work || !scratch || !digits || !lengths || !fresh || !hit
            || !cache) {
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
    recall(table, hit, points, n);
    ge sum;
    int finite;
    Py_BEGIN_ALLOW_THREADS
    finite = strauss(&sum, points, scalars_buf.buf, n, table, hit, work, fresh, scratch,
                     digits, lengths);
    Py_END_ALLOW_THREADS
    remember(table, hit, points, n);
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
    PyMem_Free(fresh);
    PyMem_Free(hit);
    PyBuffer_Release(&points_buf);
    PyBuffer_Release(&scalars_buf);
    return result;
}

/* --- fixed-base products: the audit's re-derivation ----------------------------- */

/*
 * The audit re-derives every opened shuffle and re-mask, K pairs
 *
 *     A'_k = A_pi(k) + r_k*G,    B'_k = B_pi(k) + r_k*H,
 *
 * with the same two bases in every product (G, and H the hand's joint key). A table
 * of d * 64^i * P (i < 43, 1 <= d < 64) makes each product at most 43 mixed additions
 * and no doubling, about a third of a general multiplication. Building it costs about
 * as much as 60 products, so the caller builds H's once per hand and G's once.
 */
#define FIXED_BITS 6
#define FIXED_WINDOWS 43             /* 6 * 43 = 258 >= 256 bits */
#define FIXED_DIGITS 63              /* d = 1 .. 63 */
#define FIXED_POINTS (FIXED_WINDOWS * FIXED_DIGITS)
#define FIXED_TABLE_LEN ((Py_ssize_t)(FIXED_POINTS * sizeof(ge)))

/* No entry is infinity: d * 2^(6i) is never a multiple of the prime group order. */
static PyObject *fixed_table(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer point_buf;
    if (!PyArg_ParseTuple(args, "y*", &point_buf)) {
        return NULL;
    }
    PyObject *result = NULL;
    gej *work = NULL;
    fe *scratch = NULL;
    ge p;
    if (point_buf.len != 64 || !ge_from_bytes(&p, point_buf.buf)) {
        PyErr_SetString(PyExc_ValueError, "fixed_table wants one 64-byte curve point");
        goto done;
    }
    work = PyMem_Malloc(FIXED_POINTS * sizeof(gej));
    scratch = PyMem_Malloc(FIXED_POINTS * sizeof(fe));
    result = PyBytes_FromStringAndSize(NULL, FIXED_TABLE_LEN);
    if (!work || !scratch || !result) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    gej base = {p.x, p.y, {{1, 0, 0, 0}}, 0};
    for (int i = 0; i < FIXED_WINDOWS; i++) {
        gej *row = work + i * FIXED_DIGITS;
        row[0] = base;
        for (int d = 1; d < FIXED_DIGITS; d++) {
            gej_add(&row[d], &row[d - 1], &base);
        }
        gej_add(&base, &row[FIXED_DIGITS - 1], &base);   /* 64 * base */
    }
    batch_affine((ge *)PyBytes_AS_STRING(result), work, FIXED_POINTS, scratch);
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(work);
    PyMem_Free(scratch);
    PyBuffer_Release(&point_buf);
    return result;
}

/* k * P from P's table; 32-byte big-endian k. Infinity when k = 0. */
static void fixed_mul(gej *r, const ge *table, const unsigned char *scalar) {
    uint64_t k[4];
    for (int i = 0; i < 4; i++) {
        k[i] = 0;
        for (int j = 0; j < 8; j++) {
            k[i] = (k[i] << 8) | scalar[(3 - i) * 8 + j];
        }
    }
    r->inf = 1;
    for (int i = 0; i < FIXED_WINDOWS; i++) {
        int bit = FIXED_BITS * i, limb = bit / 64, off = bit % 64;
        uint64_t bits = k[limb] >> off;
        if (off > 64 - FIXED_BITS && limb < 3) {
            bits |= k[limb + 1] << (64 - off);
        }
        int d = (int)(bits & ((1u << FIXED_BITS) - 1));
        if (d) {
            gej_add_ge(r, r, &table[i * FIXED_DIGITS + d - 1], 0);
        }
    }
}

/* Whether P + k*base is the affine point q. */
static int adds_to(const ge *table, const unsigned char *scalar, const ge *p, const ge *q) {
    gej sum;
    fixed_mul(&sum, table, scalar);
    gej_add_ge(&sum, &sum, p, 0);
    return gej_equals_ge(&sum, q);
}

/*
 * rederive(g_table, h_table, old, new, permutation, randomness) -> bool: whether
 * new[k] = old[permutation[k]] + (r_k*G, r_k*H) for every k. Ciphertexts are 128 bytes
 * (A || B, each 64-byte affine), permutation one byte per new ciphertext, r_k 32 bytes
 * big-endian; the tables come from fixed_table (G's and H's).
 */
static PyObject *rederive(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer g_buf, h_buf, old_buf, new_buf, perm_buf, r_buf;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*", &g_buf, &h_buf, &old_buf, &new_buf,
                          &perm_buf, &r_buf)) {
        return NULL;
    }
    PyObject *result = NULL;
    size_t n_old = (size_t)old_buf.len / 128, n = (size_t)new_buf.len / 128;
    if (g_buf.len != FIXED_TABLE_LEN || h_buf.len != FIXED_TABLE_LEN
            || old_buf.len % 128 != 0 || new_buf.len % 128 != 0 || n == 0
            || perm_buf.len != (Py_ssize_t)n || r_buf.len != (Py_ssize_t)(32 * n)) {
        PyErr_SetString(PyExc_ValueError, "rederive: wrong table, deck or opening sizes");
        goto done;
    }
    const unsigned char *old = old_buf.buf, *new = new_buf.buf, *perm = perm_buf.buf;
    const unsigned char *rs = r_buf.buf;
    int holds = 1, valid = 1;
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; i < n && holds && valid; i++) {
        ge a, b, a2, b2;
        if (perm[i] >= n_old) {
            holds = 0;
            break;
        }
        const unsigned char *src = old + 128 * perm[i], *dst = new + 128 * i;
        if (!ge_from_bytes(&a, src) || !ge_from_bytes(&b, src + 64)
                || !ge_from_bytes(&a2, dst) || !ge_from_bytes(&b2, dst + 64)) {
            valid = 0;
            break;
        }
        holds = adds_to(g_buf.buf, rs + 32 * i, &a, &a2)
            && adds_to(h_buf.buf, rs + 32 * i, &b, &b2);
    }
    Py_END_ALLOW_THREADS
    if (!valid) {
        PyErr_SetString(PyExc_ValueError, "rederive: a point is not on the curve");
        goto done;
    }
    result = PyBool_FromLong(holds);
done:
    PyBuffer_Release(&g_buf);
    PyBuffer_Release(&h_buf);
    PyBuffer_Release(&old_buf);
    PyBuffer_Release(&new_buf);
    PyBuffer_Release(&perm_buf);
    PyBuffer_Release(&r_buf);
    return result;
}

static PyMethodDef methods[] = {
    {"msm", msm, METH_VARARGS,
     "msm(points, scalars) -> bytes | None: the sum of k_i * P_i (public inputs only)."},
    {"fixed_table", fixed_table, METH_VARARGS,
     "fixed_table(point) -> bytes: the opaque table of multiples rederive takes."},
    {"rederive", rederive, METH_VARARGS,
     "rederive(g_table, h_table, old, new, permutation, randomness) -> bool."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_msm",
    "Multi-scalar and fixed-base multiplication on secp256k1 for public inputs.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__msm(void) {
    return PyModule_Create(&module);
}
