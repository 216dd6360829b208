package replay

// A colour attachment read without a write (COLOR_ATTACHMENT_READ alone,
// e.g. a programmable-blending or feedback read declared apart from the
// write): the attachment is loaded (LOAD_OP_LOAD: the read) and never
// stored (STORE_OP_NONE), and the pipeline blends it (for formats that
// blend) with colour write mask 0, so nothing is written. What is
// faithful: the access, its stage and layout, which synchronization
// validation checks against the plan's barriers. What is not: the
// digests do not see the texels read (no shader reads an attachment
// without VK_KHR_dynamic_rendering_local_read, which lavapipe lacks), and
// no pass clears a read-only attachment (a read before any write is
// refused as for every transient). The recording is in mode.go and
// pipeline.go (nowrite), marked colorread.go.
