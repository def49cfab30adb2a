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
import org.longhaul.flink.records.Json;

/**
 * The contract's JSON Schemas (draft 2020-12), compiled once per JVM and source: either the copy
 * bundled in the jar under {@code longhaul/schemas/} or a directory such as ingest/schemas.
 */
public final class SchemaRegistry {
    static final String BUNDLED = "longhaul/schemas/";
    private static final Map<String, SchemaRegistry> CACHE = new ConcurrentHashMap<>();

    private final Map<String, JsonSchema> schemas;
    private final Map<String, CompiledSchema> compiled;

    private SchemaRegistry(Map<String, JsonSchema> schemas, Map<String, CompiledSchema> compiled) {
        this.schemas = schemas;
        this.compiled = compiled;
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
        Map<String, JsonSchema> schemas = new HashMap<>();
        Map<String, CompiledSchema> compiled = new HashMap<>();
        for (String name : Contract.ALL_VERSIONS) {
            try (InputStream in = open(dir, name + ".schema.json")) {
                JsonNode schema = Json.mapper().readTree(in);
                schemas.put(name, factory.getSchema(schema));
                compiled.put(name, CompiledSchema.compile(schema));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot read schema " + name + " from " + (dir.isEmpty() ? "the jar" : dir),
                        e);
            }
        }
        return new SchemaRegistry(schemas, compiled);
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

    /**
     * Every problem of {@code message} against the named schema ("throughput_sample.v2"), sorted;
     * empty when valid. A message the compiled schema finds certainly valid is not walked again by
     * networknt, which judges (and explains) every other.
     */
    public List<String> problems(String schemaName, JsonNode message) {
        return known(compiled, schemaName).check(message) == Verdict.VALID
                ? List.of()
                : networkntProblems(schemaName, message);
    }

    /**
     * networknt's verdict alone: the judge CompiledSchemaTest holds the compiled schemas to, and
     * HotPathBench's yardstick.
     */
    public List<String> networkntProblems(String schemaName, JsonNode message) {
        JsonSchema schema = known(schemas, schemaName);
        TreeSet<String> out = new TreeSet<>();
        for (ValidationMessage m : schema.validate(message)) {
            out.add(m.getMessage());
        }
        return List.copyOf(out);
    }

    /**
     * The one-pass reader of messages of {@code schemaName} into {@code type}, or null when there
     * is none (OnePass.of).
     */
    <T> OnePass<T> onePass(String schemaName, Class<T> type) {
        return OnePass.of(known(compiled, schemaName), type);
    }

    CompiledSchema compiled(String schemaName) {
        return known(compiled, schemaName);
    }

    private static <T> T known(Map<String, T> byName, String schemaName) {
        T schema = byName.get(schemaName);
        if (schema == null) {
            throw new IllegalArgumentException("unknown schema " + schemaName);
        }
        return schema;
    }
}
