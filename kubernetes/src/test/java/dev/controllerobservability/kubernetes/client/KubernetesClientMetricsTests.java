package dev.controllerobservability.kubernetes.client;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * client-go's {@code host} label and what counts as a watch.
 */
class KubernetesClientMetricsTests {

	@Test
	void hostIsTheUrlsHostAndPort() {
		assertThat(KubernetesClientMetrics.host(URI.create("https://10.96.0.1:443/api/v1/pods")))
			.isEqualTo("10.96.0.1:443");
		assertThat(KubernetesClientMetrics.host(URI.create("https://kubernetes.default.svc/api")))
			.isEqualTo("kubernetes.default.svc");
		assertThat(KubernetesClientMetrics.host(URI.create("https://[fd00::1]:6443/api"))).isEqualTo("[fd00::1]:6443");
	}

	@Test
	void watchesAreWatchQueriesAndWebSockets() {
		assertThat(KubernetesClientMetrics.isWatch(URI.create("https://h/api/v1/pods?watch=true&resourceVersion=1")))
			.isTrue();
		assertThat(
				KubernetesClientMetrics.isWatch(URI.create("https://h/api/v1/pods?allowWatchBookmarks=true&watch=1")))
			.isTrue();
		assertThat(KubernetesClientMetrics.isWatch(URI.create("wss://h/api/v1/pods?watch=true"))).isTrue();
		assertThat(KubernetesClientMetrics.isWatch(URI.create("https://h/api/v1/pods?labelSelector=watch%3Dtrue")))
			.isFalse();
		assertThat(KubernetesClientMetrics.isWatch(URI.create("https://h/api/v1/pods"))).isFalse();
	}

}
