package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.config.RetryBudget;
import io.ferry.rpc.config.extension.ClusterProvider;
import io.ferry.rpc.config.extension.ReferenceContext;
import io.ferry.rpc.config.option.Options;

import java.time.Duration;

/** Ferry's own fault-tolerance strategies, registered by name like any other (see {@code META-INF/services}). */
public final class BuiltinClusters {
    private BuiltinClusters() {
    }

    /** Retries what provably did not run on other providers, within the retry budget: the default. */
    public static final class Failover implements ClusterProvider {
        @Override
        public String name() {
            return "failover";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            RetryBudget budget = reference.reference().retryBudget() != null ? reference.reference().retryBudget()
                    : reference.consumer().retryBudget();
            return new FailoverCluster(m -> reference.settings().get(Options.RETRIES, m), budget, reference.ticker(),
                    m -> reference.settings().get(Options.IDEMPOTENT, m));
        }
    }

    public static final class Failfast implements ClusterProvider {
        @Override
        public String name() {
            return "failfast";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            return new FailfastCluster();
        }
    }

    public static final class Failsafe implements ClusterProvider {
        @Override
        public String name() {
            return "failsafe";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            return new FailsafeCluster();
        }
    }

    /** Logs a failure, returns null, and retries in the background every 5 s, 3 times, from 1,000 at most. */
    public static final class Failback implements ClusterProvider {
        @Override
        public String name() {
            return "failback";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            return new FailbackCluster(reference.timer(), reference.ticker(), Duration.ofSeconds(5), 3, 1000);
        }
    }

    public static final class Forking implements ClusterProvider {
        @Override
        public String name() {
            return "forking";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            return new ForkingCluster(reference.settings().get(Options.FORKS));
        }
    }

    public static final class Broadcast implements ClusterProvider {
        @Override
        public String name() {
            return "broadcast";
        }

        @Override
        public Cluster create(ReferenceContext reference) {
            return new BroadcastCluster();
        }
    }
}
