package io.ferry.rpc.registry.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The last provider list seen for each interface, kept in a file so that a consumer starting while ZooKeeper is
 * down still finds providers. One line per interface: its name, then the encoded provider node names. Written
 * whole to a temporary file and moved into place, so a crash never leaves half a file. One file per application
 * by default; processes of one application on one host share it, and the last writer wins. With no file (turned
 * off) the lists are kept in memory only.
 */
public final class ProviderCache {
    private static final Logger log = LoggerFactory.getLogger(ProviderCache.class);

    private final Path file;
    private final Properties entries = new Properties();

    public ProviderCache(Path file) {
        this.file = file;
        if (file != null && Files.isReadable(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                entries.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                log.warn("ignoring unreadable registry cache {}: {}", file, e.toString());
            }
        }
    }

    /** The encoded provider node names last seen for {@code interfaceName}, or null if never seen. */
    public synchronized List<String> get(String interfaceName) {
        String value = entries.getProperty(interfaceName);
        if (value == null) {
            return null;
        }
        return value.isBlank() ? List.of() : Arrays.asList(value.trim().split(" "));
    }

    public synchronized void put(String interfaceName, List<String> encodedProviders) {
        String value = String.join(" ", encodedProviders);
        if (value.equals(entries.getProperty(interfaceName))) {
            return;
        }
        entries.setProperty(interfaceName, value);
        if (file == null) {
            return;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            // a temporary file of our own: two processes writing at once must not share one; created owner-only
            // (rw-------), as the file stays once moved: provider URLs may hold their tokens
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName().toString(), ".tmp");
            try (Writer writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                entries.store(writer, "Ferry registry cache: the last providers seen per interface");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("cannot write registry cache {}: {}", file, e.toString());
        }
    }
}
