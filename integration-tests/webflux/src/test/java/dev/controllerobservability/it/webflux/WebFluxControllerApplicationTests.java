package dev.controllerobservability.it.webflux;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.DispatcherHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On WebFlux, without the servlet stack, the starter records operations from the
 * annotation and from {@code observe}, serves them on {@code /actuator/prometheus} and
 * serves its own endpoints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMetrics
class WebFluxControllerApplicationTests {

	@LocalServerPort
	private int port;

	private WebTestClient client;

	@BeforeEach
	void client() {
		this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	@Test
	void runsOnTheReactiveStackOnly(ApplicationContext context) {
		assertThat(context.getBeanNamesForType(DispatcherHandler.class)).isNotEmpty();
		assertThat(isPresent("org.springframework.web.servlet.DispatcherServlet")).isFalse();
	}

	@Test
	void recordsAnnotatedOperationsCalledFromHandlers() {
		this.client.get()
			.uri("/provisioners/gpu/bind/3")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("3");
		this.client.get().uri("/provisioners/gpu/bind/-1").exchange().expectStatus().isBadRequest();
		this.client.get().uri("/provisioners/gpu/bind/2").exchange().expectStatus().isOk();
		assertThat(scrape()).contains(
				"# HELP karpenter_allocation_controller_bind_duration_seconds Duration of binding pods to nodes.\n",
				"# TYPE karpenter_allocation_controller_bind_duration_seconds histogram\n",
				"karpenter_allocation_controller_bind_duration_seconds_count{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"gpu\",result=\"success\"} 2\n",
				"karpenter_allocation_controller_bind_duration_seconds_count{cluster=\"dev\",error=\"IllegalArgumentException\","
						+ "provisioner=\"gpu\",result=\"error\"} 1\n",
				"karpenter_allocation_controller_bind_duration_seconds_bucket{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"gpu\",result=\"success\",le=\"5.0\"} 2\n",
				"karpenter_allocation_controller_bind_in_flight{cluster=\"dev\",provisioner=\"gpu\"} 0.0\n");
	}

	@Test
	void recordsObservedOperationsCalledFromHandlers() {
		this.client.get()
			.uri("/provisioners/spot/launch")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("launched for spot");
		assertThat(scrape()).contains("karpenter_launch_duration_seconds_count{cluster=\"dev\",error=\"none\","
				+ "provisioner=\"spot\",result=\"success\"} 1\n");
	}

	@Test
	void servesTheCatalogTheRulesAndTheLintFindings() {
		this.client.get().uri("/provisioners/default/bind/1").exchange().expectStatus().isOk();
		this.client.get()
			.uri("/actuator/controllermetrics")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.namespace")
			.isEqualTo("karpenter")
			.jsonPath("$.metrics[?(@.name == 'karpenter_allocation_controller_bind_duration_seconds')].labels[*]")
			.isEqualTo(List.of("cluster", "error", "provisioner", "result"));
		this.client.get()
			.uri("/actuator/controllerrules")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.group")
			.isEqualTo("karpenter.rules");
		this.client.get()
			.uri("/actuator/controllerrules/prometheusrule")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((body) -> assertThat(body)
				.startsWith("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n"));
		this.client.get()
			.uri("/actuator/controllermetricslint")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.controller")
			.isEmpty();
	}

	private String scrape() {
		return this.client.get()
			.uri("/actuator/prometheus")
			.accept(MediaType.TEXT_PLAIN)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, WebFluxControllerApplicationTests.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}
