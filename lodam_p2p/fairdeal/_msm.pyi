def msm(points: bytes, scalars: bytes, /) -> bytes | None:
    """Σ k_i·P_i over n 64-byte affine points (x ‖ y) and n 32-byte scalars, big-endian;
    None for the point at infinity. Public inputs only: it runs in variable time."""
