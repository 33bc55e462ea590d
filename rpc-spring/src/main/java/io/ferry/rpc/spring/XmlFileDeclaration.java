package io.ferry.rpc.spring;

import io.ferry.rpc.config.FerryFile;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

/**
 * The {@code ferry:} elements of one Spring XML file, read again by Ferry's own reader when the Ferry is built:
 * with line numbers in every message, the option table's checks, and the context's placeholders resolved then (a
 * placeholder configurer has registered by that time).
 */
final class XmlFileDeclaration implements FerryDeclaration {
    private final Resource resource;

    XmlFileDeclaration(Resource resource) {
        this.resource = resource;
    }

    @Override
    public FerryFile read(UnaryOperator<String> placeholders) {
        try (InputStream in = resource.getInputStream()) {
            return FerryFile.xml(name(), in, placeholders);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource.getDescription() + ": " + e.getMessage(), e);
        }
    }

    /** The file's name as messages show it: {@code provider.xml}, not the whole URL. */
    private String name() {
        String file = resource.getFilename();
        return file != null ? file : resource.getDescription();
    }

    @Override
    public String toString() {
        return "ferry: elements of " + resource.getDescription();
    }
}
