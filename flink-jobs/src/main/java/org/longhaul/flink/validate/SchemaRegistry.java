package org.longhaul.flink.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.longhaul.flink.records.Contract;

/**
 * The contract's JSON Schemas (draft 2020-12), compiled once per JVM and source: either the copy
 * bundled in the jar under {@code longhaul/schemas/} or a directory such as ingest/schemas.
 */
public final class SchemaRegistry {
    static final String BUNDLED = "longhaul/schemas/";
    private static final Map<String, SchemaRegistry> CACHE = new ConcurrentHashMap<>();

    private final Map<String, JsonSchema> schemas;

    private SchemaRegistry(Map<String, JsonSchema> schemas) {
        this.schemas = schemas;
    }

    /** The schemas of {@code dir}, or the bundled ones when {@code dir} is null or empty. */
    public static SchemaRegistry load(String dir) {
        String key = dir == null || dir.isBlank() ? "" : dir;
        return CACHE.computeIfAbsent(key, SchemaRegistry::compile);
    }

    public static SchemaRegistry bundled() {
        return load(null);
    }

    private static SchemaRegistry compile(String dir) {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        Map<String, JsonSchema> compiled = new HashMap<>();
        for (String name : Contract.ALL_VERSIONS) {
            try (InputStream in = open(dir, name + ".schema.json")) {
                compiled.put(name, factory.getSchema(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read schema " + name + " from "
                        + (dir.isEmpty() ? "the jar" : dir), e);
            }
        }
        return new SchemaRegistry(compiled);
    }

    private static InputStream open(String dir, String file) throws IOException {
        if (!dir.isEmpty()) {
            return Files.newInputStream(Path.of(dir, file));
        }
        InputStream in = SchemaRegistry.class.getClassLoader().getResourceAsStream(BUNDLED + file);
        if (in == null) {
            throw new IOException("resource " + BUNDLED + file + " not in the jar");
        }
        return in;
    }

    /** Every problem of {@code message} against the named schema ("throughput_sample.v2"), sorted; empty when valid. */
    public List<String> problems(String schemaName, JsonNode message) {
        JsonSchema schema = schemas.get(schemaName);
        if (schema == null) {
            throw new IllegalArgumentException("unknown schema " + schemaName);
        }
        TreeSet<String> out = new TreeSet<>();
        for (ValidationMessage m : schema.validate(message)) {
            out.add(m.getMessage());
        }
        return List.copyOf(out);
    }
}
