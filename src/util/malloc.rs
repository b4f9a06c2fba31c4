//! glibc malloc's treatment of mid-sized buffers, for ingestion.
//!
//! glibc serves an allocation of at least its mmap threshold (128 KiB at
//! first, raised up to 32 MiB as such blocks are freed) with a fresh `mmap`
//! and returns it with `munmap` when freed: every result file's decoded XML
//! and every log archive's buffers are new pages, each one faulted in and
//! zeroed by the kernel. Ingesting the whole 2025 competition (1,110 result
//! files, 1.79 million runs) spent 13-15 s of system time so; with the
//! threshold fixed at 32 MiB these buffers are reused from the heap, and the
//! system time is 7-8 s and the wall time 31 s -> 26.5 s (docs/performance.md).
//! On result sets of small files (the realistic and independent data sets)
//! it changes nothing measurable.

/// The threshold set by [`reuse_buffers`]: blocks below it come from the heap.
pub const MMAP_THRESHOLD: i32 = 32 << 20;

/// Makes glibc malloc serve blocks under [`MMAP_THRESHOLD`] from its heap
/// (process-wide, from now on; freed memory is still returned to the system
/// at the top of the heap). Call it once, before heavy work, in commands that
/// allocate and free many mid-sized buffers (ingestion). No effect but on glibc.
pub fn reuse_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt(3) only changes a malloc tuning parameter; any value is
    // valid (glibc rejects out-of-range ones by returning 0).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
