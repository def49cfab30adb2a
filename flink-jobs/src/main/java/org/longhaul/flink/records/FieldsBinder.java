package org.longhaul.flink.records;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Binds a record from an object given as its fields' values in a fixed order of names (null where a
 * field is absent), as {@link Json#fieldsBinder} made it: the record that {@link Json#convert}
 * gives for the same object, or null when Jackson must decide.
 */
@FunctionalInterface
public interface FieldsBinder<T> {
    T bind(JsonNode[] values);
}
