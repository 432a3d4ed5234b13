def msm(points: bytes, scalars: bytes, /) -> bytes | None:
    """Σ k_i·P_i over n 64-byte affine points (x ‖ y) and n 32-byte scalars, big-endian;
    None for the point at infinity. Public inputs only: it runs in variable time."""

def fixed_table(point: bytes, /) -> bytes:
    """The (opaque) table of multiples of one 64-byte affine point that ``rederive``
    takes."""

def rederive(g_table: bytes, h_table: bytes, old: bytes, new: bytes, permutation: bytes,
             randomness: bytes, /) -> bool:
    """Whether new[k] = old[π(k)] + (r_k·G, r_k·H) for every k: ciphertexts of 128 bytes
    (A ‖ B affine), π one byte and r_k 32 bytes big-endian per new ciphertext, the
    tables of G and H from ``fixed_table``. Public inputs only (variable time)."""
