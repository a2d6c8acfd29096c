package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.stability.StabilityLevel;

/**
 * One declared metric.
 *
 * @param type Metric type: counter, gauge, histogram, summary (prefer histogram) or info.
 * @param help Help text; the stability level and deprecation are prepended when exposed.
 * @param labels Label keys every series carries.
 * @param buckets Bucket boundaries of a histogram, strictly increasing. Defaults to
 * duration-buckets.
 * @param unit Base unit the name ends with, such as seconds or bytes.
 * @param stability Stability level: INTERNAL, ALPHA, BETA or STABLE.
 * @param deprecatedVersion Version that deprecated the metric, MAJOR.MINOR.PATCH.
 * @param replaces Old name (without namespace) this metric replaces; it stays exposed as
 * a deprecated alias for the stability level's deprecation window.
 * @param renamedIn Version that introduced this name in place of the replaced one.
 * @param labelValues Known values per label; when every label's values are known,
 * counters and histograms are present at 0 from start-up.
 * @param perObject Whether the series are about Kubernetes objects: they carry the
 * object's namespace and name labels and are removed when the object is forgotten or
 * deleted.
 * @param objectKind Whether the series of a per-object metric also carry the object's
 * kind label.
 * @param timeToLive How long a series of a per-object metric lives without being written
 * before it is removed. Defaults to until its object is forgotten.
 */
public record MetricProperties(MetricType type, String help, @DefaultValue List<String> labels,
		@DefaultValue List<Double> buckets, String unit, @DefaultValue("ALPHA") StabilityLevel stability,
		String deprecatedVersion, String replaces, String renamedIn,
		@DefaultValue Map<String, List<String>> labelValues, @DefaultValue("false") boolean perObject,
		@DefaultValue("false") boolean objectKind, @Nullable Duration timeToLive) {

}
