package io.ferry.rpc.remoting;

import java.util.concurrent.CompletionStage;

/**
 * Answers the requests of one admin route. Runs on the admin port's one thread, so it must not block: a handler
 * that waits for something (a drain) returns a stage completed later, on any thread, and the answer is written on
 * the admin thread. An exception, thrown or in the stage, is answered 500 without its message (it may hold
 * configuration) and logged.
 */
@FunctionalInterface
public interface AdminHandler {
    CompletionStage<AdminResponse> handle(AdminRequest request) throws Exception;
}
