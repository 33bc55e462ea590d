package io.ferry.rpc.remoting;

import java.time.Duration;
import java.util.List;

/**
 * Every connection of one side (a client's or a server's) at one moment; {@link #toString()} prints them as a
 * table, one line per connection.
 */
public record ConnectionView(String side, List<ConnectionInfo> connections) {

    public ConnectionView {
        connections = List.copyOf(connections);
    }

    private static final String FORMAT = "%-21s %-21s %-18s %-10s %8s %10s %12s %8s %9s%n";

    @Override
    public String toString() {
        StringBuilder table = new StringBuilder();
        table.append(side).append(": ").append(connections.size()).append(" connection(s)").append('\n');
        table.append(String.format(FORMAT, "local", "remote", "io thread", "state", "pending", "queued B",
                "unwritable", "hb rtt", "age"));
        for (ConnectionInfo c : connections) {
            table.append(String.format(FORMAT, c.local(), c.remote(), c.ioThread(), c.state(), c.pendingCalls(),
                    c.queuedBytes(), millis(c.unwritableTime()), millis(c.lastHeartbeatRtt()), seconds(c.age())));
        }
        return table.toString();
    }

    private static String millis(Duration d) {
        return d == null ? "-" : d.toMillis() + "ms";
    }

    private static String seconds(Duration d) {
        return d.toSeconds() + "s";
    }
}
