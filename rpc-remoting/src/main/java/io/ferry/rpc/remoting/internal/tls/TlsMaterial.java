package io.ferry.rpc.remoting.internal.tls;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.remoting.TlsOptions;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The contents of one side's PEM files, read at one moment: what a context is built from, and what the next read
 * is compared with to tell whether a file changed. Reading the bytes (not the modification time) sees a file
 * replaced within the same second, and a rename-into-place as well as a rewrite.
 */
final class TlsMaterial {
    private final List<File> files;

    private TlsMaterial(List<File> files) {
        this.files = files;
    }

    /** One file an option names, with its contents. */
    record File(Option<String> option, Path path, byte[] bytes) {
        InputStream open() {
            return new ByteArrayInputStream(bytes);
        }

        /** "server-key-cert-chain-path /etc/ferry/provider.pem", for error messages. */
        String describe() {
            return option.fileName() + " " + path;
        }
    }

    /**
     * Reads every file of {@code options} among {@code names} that is set.
     *
     * @throws IllegalArgumentException naming the option and the file that cannot be read
     */
    static TlsMaterial read(TlsOptions options, List<Option<String>> names) {
        List<File> files = new ArrayList<>();
        for (Option<String> option : names) {
            String path = options.values().get(option);
            if (path != null) {
                files.add(readFile(option, Path.of(path)));
            }
        }
        return new TlsMaterial(files);
    }

    private static File readFile(Option<String> option, Path path) {
        try {
            return new File(option, path, Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option.fileName() + ": " + path + " (expected: a readable PEM file; "
                    + "there is no such file)", e);
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option.fileName() + ": " + path + " (expected: a readable PEM file; "
                    + e + ")", e);
        }
    }

    boolean isEmpty() {
        return files.isEmpty();
    }

    /** The file {@code option} names, or null when it is not set. */
    File file(Option<String> option) {
        for (File file : files) {
            if (file.option() == option) {
                return file;
            }
        }
        return null;
    }

    /** The files whose contents differ from {@code before}'s, described; empty when none changed. */
    List<String> changedSince(TlsMaterial before) {
        List<String> changed = new ArrayList<>();
        for (File file : files) {
            File old = before.file(file.option());
            if (old == null || !Arrays.equals(old.bytes(), file.bytes())) {
                changed.add(file.describe());
            }
        }
        return changed;
    }
}
