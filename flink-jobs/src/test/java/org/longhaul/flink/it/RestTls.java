package org.longhaul.flink.it;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Mutual TLS with Flink's REST API as the stack serves it (scripts/stack/flink.sh): present the
 * REST certificate of a PEM file holding its unencrypted PKCS#8 key and the certificate
 * (LONGHAUL_FLINK_CERT, flink-rest.pem), and trust that certificate alone for the server.
 */
final class RestTls {
    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]+)-----END \\1-----");

    private RestTls() {}

    static SSLContext context(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem, StandardCharsets.US_ASCII);
        byte[] key = null;
        byte[] cert = null;
        for (Matcher m = BLOCK.matcher(text); m.find(); ) {
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            if (m.group(1).equals("PRIVATE KEY")) {
                key = der;
            } else if (m.group(1).equals("CERTIFICATE") && cert == null) {
                cert = der;
            }
        }
        if (key == null || cert == null) {
            throw new IOException(pem + ": no PKCS#8 PRIVATE KEY and CERTIFICATE in it");
        }
        Certificate c =
                CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(cert));
        PrivateKey k =
                KeyFactory.getInstance(c.getPublicKey().getAlgorithm())
                        .generatePrivate(new PKCS8EncodedKeySpec(key));
        char[] none = new char[0];
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, none);
        ks.setKeyEntry("client", k, none, new Certificate[] {c});
        KeyManagerFactory kmf =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, none);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, none);
        trust.setCertificateEntry("server", c);
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }
}
