package io.ferry.rpc.remoting;

/**
 * One exported service of a server at one moment, read without locks (values may be a moment old).
 *
 * @param service       the interface's fully qualified name
 * @param version       "" for none
 * @param group         "" for none
 * @param inFlight      requests running in the service's chain now (from the business thread's start to the end
 *                      of its answer's future)
 * @param deadlineDrops requests answered TIMEOUT without running since export, because their caller's deadline
 *                      had passed before a business thread took them
 */
public record ServiceStats(String service, String version, String group, int inFlight, long deadlineDrops) {
}
