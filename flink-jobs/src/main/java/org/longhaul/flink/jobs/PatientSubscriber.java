package org.longhaul.flink.jobs;

import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetIdentifierProvider;
import org.apache.flink.connector.kafka.source.enumerator.subscriber.KafkaSubscriber;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source's subscription that outlasts a broker's hang. The Kafka source's enumerator lists the
 * topics of its pattern every discovery interval (every agent's own topics: a new agent is read
 * without a restart), and fails the whole job when one listing fails, which it does whenever the
 * admin client's request went to a broker that hangs (its 30 s request timeout). Here a failed
 * listing keeps the partitions known from the last one, with a warning, and the next interval tries
 * again; only failures for longer than {@code patience} (or the first listing, when nothing is
 * known) fail the job as before. A partition made meanwhile is read from the next listing that
 * succeeds; none known is ever dropped by a failure.
 */
public final class PatientSubscriber implements KafkaSubscriber, KafkaDatasetIdentifierProvider {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PatientSubscriber.class);

    private final KafkaSubscriber inner;
    private final long patienceMs;
    private final LongSupplier clock;
    // the enumerator's own: made where it runs, never serialised
    private transient Set<TopicPartition> known;
    private transient long failingSince = -1;

    PatientSubscriber(KafkaSubscriber inner, Duration patience, LongSupplier clock) {
        this.inner = inner;
        this.patienceMs = patience.toMillis();
        this.clock = clock;
    }

    /** Subscribes to pattern, patient for as long as patience. */
    public static PatientSubscriber of(Pattern pattern, Duration patience) {
        return new PatientSubscriber(
                KafkaSubscriber.getTopicPatternSubscriber(pattern),
                patience,
                (LongSupplier & Serializable) System::currentTimeMillis);
    }

    @Override
    public Set<TopicPartition> getSubscribedTopicPartitions(AdminClient admin) {
        Set<TopicPartition> found;
        try {
            found = inner.getSubscribedTopicPartitions(admin);
        } catch (RuntimeException e) {
            long now = clock.getAsLong();
            if (known == null) {
                throw e;
            }
            if (failingSince < 0) {
                failingSince = now;
            }
            if (now - failingSince > patienceMs) {
                throw new IllegalStateException(
                        "the topics of the source could not be listed for "
                                + (now - failingSince) / 1000
                                + " s",
                        e);
            }
            LOG.warn(
                    "listing the topics of the source failed for {} s ({}): the {} partitions known"
                            + " are read meanwhile; failing the job after {} s",
                    (now - failingSince) / 1000,
                    e.getMessage(),
                    known.size(),
                    patienceMs / 1000);
            return Set.copyOf(known);
        }
        known = found;
        failingSince = -1;
        return found;
    }

    @Override
    public Optional<DefaultKafkaDatasetIdentifier> getDatasetIdentifier() {
        return inner instanceof KafkaDatasetIdentifierProvider p
                ? p.getDatasetIdentifier()
                : Optional.empty();
    }
}
