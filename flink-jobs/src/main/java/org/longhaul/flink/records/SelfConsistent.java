package org.longhaul.flink.records;

/**
 * A sample that can contradict itself in ways a schema cannot say: the job dead-letters it (reason
 * "inconsistent: ...") rather than let it make series the run never measured.
 */
public interface SelfConsistent {
    /** Why this sample cannot be what its tool reported, or null when it can. */
    String inconsistency();
}
