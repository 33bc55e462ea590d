package io.ferry.rpc.config.internal.admin;

import io.ferry.rpc.remoting.AdminRequest;
import io.ferry.rpc.remoting.AdminResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;

/**
 * {@code GET /}: one HTML page, with its style and script inline and nothing fetched from elsewhere, that polls
 * {@code /services}, {@code /connections} and {@code /calls} of its own origin and draws them. The page is a
 * resource beside this class, read once; it holds no data, so the answer is the same for everyone.
 */
final class AdminPage {
    static final String RESOURCE = "admin.html";

    private final AdminResponse page = new AdminResponse(200, AdminResponse.HTML, read());

    CompletionStage<AdminResponse> page(AdminRequest request) {
        return page.now();
    }

    private static String read() {
        try (InputStream in = AdminPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + AdminPage.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
