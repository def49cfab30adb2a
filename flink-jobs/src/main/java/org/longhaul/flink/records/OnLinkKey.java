package org.longhaul.flink.records;

import org.apache.flink.api.java.functions.KeySelector;

/**
 * Keys a stream of messages by their link ({@link OnLink#link()}). A class, not the method
 * reference {@code ThroughputSample::link}: every such reference to the one default method names
 * {@code OnLink.link}, and javac's lambda deserialization cannot tell two of them in one class
 * apart once Flink ships the job ({@link JsonKafkaSerializer} says what that broke).
 *
 * @param <T> the messages
 */
public final class OnLinkKey<T extends OnLink> implements KeySelector<T, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(T message) {
        return message.link();
    }
}
