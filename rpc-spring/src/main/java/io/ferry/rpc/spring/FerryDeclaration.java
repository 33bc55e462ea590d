package io.ferry.rpc.spring;

import io.ferry.rpc.config.FerryFile;

import java.util.function.UnaryOperator;

/**
 * A bean that declares part of the application's Ferry: the {@code ferry:} elements of one Spring XML file, or
 * Boot's {@code ferry.*} properties. {@link FerryLifecycle} reads every one, as one declaration, when it builds the
 * Ferry.
 */
@FunctionalInterface
public interface FerryDeclaration {
    /** What this declares; {@code placeholders} resolves the context's {@code ${...}} in values. */
    FerryFile read(UnaryOperator<String> placeholders);
}
