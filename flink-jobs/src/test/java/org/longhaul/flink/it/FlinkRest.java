package org.longhaul.flink.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.longhaul.flink.records.Json;

/**
 * The few calls of Flink's REST API a test needs: upload a jar, run it, watch the job, cancel it.
 */
final class FlinkRest {
    private final String base;
    private final HttpClient http;

    /**
     * The REST API at base; an https one with the stack's REST certificate (LONGHAUL_FLINK_CERT),
     * which it admits alone (mutual TLS).
     */
    FlinkRest(String base) throws IOException {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        if (base.startsWith("https://")) {
            try {
                b.sslContext(RestTls.context(Path.of(StackKafka.env("LONGHAUL_FLINK_CERT"))));
            } catch (GeneralSecurityException e) {
                throw new IOException("Flink's REST certificate: " + e.getMessage(), e);
            }
        }
        this.http = b.build();
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** POST /jars/upload (multipart); returns the jar id to run. */
    String upload(Path jar) throws IOException, InterruptedException {
        String boundary = "longhaul-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(
                ("--"
                                + boundary
                                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                                + jar.getFileName()
                                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
        body.write(Files.readAllBytes(jar));
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        JsonNode r =
                send(
                        HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
        String filename = r.get("filename").asText();
        return filename.substring(filename.lastIndexOf('/') + 1);
    }

    /** POST /jars/{id}/run; returns the job id. */
    String run(String jarId, String entryClass, List<String> args)
            throws IOException, InterruptedException {
        String body = Json.write(Map.of("entryClass", entryClass, "programArgsList", args));
        JsonNode r =
                send(
                        HttpRequest.newBuilder(URI.create(base + "/jars/" + jarId + "/run"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)));
        return r.get("jobid").asText();
    }

    String state(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId).get("state").asText();
    }

    String rootException(String jobId) throws IOException, InterruptedException {
        JsonNode ex = get("/jobs/" + jobId + "/exceptions");
        JsonNode entries = ex.path("exceptionHistory").path("entries");
        return entries.isEmpty()
                ? "(none)"
                : entries.get(0).path("stacktrace").asText().lines().limit(15).toList().toString();
    }

    /**
     * Everything Flink's REST API shows of a job as text: its detail and plan, its configuration,
     * and every exception with its stack trace.
     */
    String jobTexts(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId)
                + "\n"
                + get("/jobs/" + jobId + "/config")
                + "\n"
                + get("/jobs/" + jobId + "/exceptions");
    }

    void cancel(String jobId) throws IOException, InterruptedException {
        send(
                HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    void deleteJar(String jarId) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(URI.create(base + "/jars/" + jarId)).DELETE());
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        request.timeout(Duration.ofSeconds(60)).build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException(
                    "Flink REST "
                            + r.request().method()
                            + " "
                            + r.request().uri()
                            + ": HTTP "
                            + r.statusCode()
                            + " "
                            + r.body());
        }
        return r.body().isBlank()
                ? Json.mapper().createObjectNode()
                : Json.mapper().readTree(r.body());
    }
}
