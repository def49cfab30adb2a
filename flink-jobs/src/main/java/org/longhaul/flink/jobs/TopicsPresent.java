package org.longhaul.flink.jobs;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which topics exist, from a listing of the brokers' topics that is asked again when a topic not in
 * the last one is wanted for the first time, and for a topic still missing at most once every
 * {@code relistMs}. A topic is never deleted under the job ({@code longhaul admin remove-agent
 * --delete-topics} empties an agent's topics and keeps them), so what was listed stays true. An
 * identity added while the job runs has its own dead-letter topic made with its raw topics, before
 * the job reads any of its samples: the first of its dead letters finds it (a listing a minute old
 * did not, and the session's other job wrote a new agent's dead letter to the shared topic in make
 * test); one given its own dead letters later, by {@code add-agent} again, is found within {@code
 * relistMs}. A listing that fails keeps the last one, with a warning, until the next is due.
 */
final class TopicsPresent {
    private static final Logger LOG = LoggerFactory.getLogger(TopicsPresent.class);

    private final Callable<Set<String>> list;
    private final LongSupplier clock;
    private final long relistMs;
    private Set<String> known = Set.of();
    // the topics asked for and missing from a listing (one an identity: bounded by the admin)
    private final Set<String> missed = new HashSet<>();
    private long listedAt;

    TopicsPresent(Callable<Set<String>> list, LongSupplier clock, long relistMs) {
        this.list = list;
        this.clock = clock;
        this.relistMs = relistMs;
    }

    /** Whether topic exists, as of the last listing (made now if topic is not in it and due). */
    boolean has(String topic) {
        if (known.contains(topic)) {
            return true;
        }
        long now = clock.getAsLong();
        if (!missed.add(topic) && now - listedAt < relistMs) {
            return false;
        }
        listedAt = now;
        try {
            known = Set.copyOf(list.call());
        } catch (Exception e) {
            LOG.warn("listing the brokers' topics failed, the last listing kept: {}", e.toString());
        }
        return known.contains(topic);
    }
}
