package org.longhaul.flink.functions.incident;

import java.util.List;
import org.longhaul.flink.records.Location;

/**
 * One location the localiser names and what it explains.
 *
 * @param symptom the links' symptom ({@link LinkView#symptom()})
 * @param links the degraded links it explains ("src|dst" keys, sorted)
 * @param degraded every degraded link through it (some may be explained by another location)
 * @param healthy recently healthy links through it: the evidence against it
 * @param healthyAvoiding recently healthy links that share a source or destination with an
 *     explained link but do not pass through it: the evidence against those endpoints
 * @param indistinct other locations with exactly the same degraded and healthy links (hops of one
 *     segment, say): the measurements cannot tell them apart
 */
public record Finding(
        String symptom,
        Location location,
        List<String> links,
        int degraded,
        int healthy,
        int healthyAvoiding,
        int indistinct) {

    /** The symptom and location: an incident's identity. */
    public String key() {
        return key(symptom, location);
    }

    /** The identity of an incident of this symptom at this location. */
    public static String key(String symptom, Location location) {
        return symptom + "@" + location.key();
    }
}
