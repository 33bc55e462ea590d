package io.ferry.rpc.cluster;

import java.util.List;

/** The providers a reference may call now: a fixed address, or the live list a registry announces. */
public interface Directory {
    /** The providers now; may be empty. Cheap: called once per attempt. */
    List<Endpoint> endpoints();

    /** Where the providers come from, for messages ("dubbo://10.0.0.5:20880", "registry, 3 providers"). */
    String describe();
}
