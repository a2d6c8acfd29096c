package dev.controllerobservability.autoconfigure.rules;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.lint.LintFinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * In {@code warn} mode the lint findings are logged from the application's task executor
 * when it has one, else before the application is ready, on the thread that starts it;
 * either way the starter starts no thread, and none outlives the application. The scrape
 * is taken before readiness only when a rule or a failing lint needs it.
 */
// The application's logging set-up replaces appenders added beforehand: read the console.
@ExtendWith(OutputCaptureExtension.class)
class StartupChecksTests {

	private static final String FINDING = "Metric lint: karpenter_wait_ms metric names should not contain abbreviated units";

	@Test
	void lintsOnTheApplicationsTaskExecutor(CapturedOutput output) {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		try (ConfigurableApplicationContext context = start(WebApplicationType.SERVLET,
				"--spring.task.execution.thread-name-prefix=app-task-", "--server.port=0")) {
			await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains(FINDING));
			assertThat(loggedOn("app-task-\\d+", output)).isTrue();
		}
		assertNoThreadLeftRunning(before);
	}

	@Test
	void lintsBeforeReadinessInAnApplicationWithoutAWebServer(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("--spring.task.execution.thread-name-prefix=app-task-")) {
			assertThat(context.containsBean(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME))
				.isTrue();
			assertThat(loggedOn(Pattern.quote(Thread.currentThread().getName()), output)).isTrue();
			assertThat(loggedOn("app-task-\\d+", output)).isFalse();
		}
	}

	@Test
	void lintsBeforeReadinessWithoutATaskExecutor(CapturedOutput output) {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		try (ConfigurableApplicationContext context = start(
				"--spring.autoconfigure.exclude=" + TaskExecutionAutoConfiguration.class.getName())) {
			assertThat(context.containsBean(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME))
				.isFalse();
			assertThat(loggedOn(Pattern.quote(Thread.currentThread().getName()), output)).isTrue();
		}
		assertNoThreadLeftRunning(before);
	}

	@Test
	void scrapesBeforeReadinessOnlyWhenARuleReadsAMetricNothingDeclares() {
		String[] declaredOnly = { "--controller.observability.lint.mode=off",
				"--controller.observability.metrics.jobs_total.type=counter",
				"--controller.observability.metrics.jobs_total.help=Number of jobs.",
				"--controller.observability.alerts.KarpenterJobsStopped.expr=rate(karpenter_jobs_total[5m]) == 0",
				"--controller.observability.alerts.KarpenterJobsStopped.severity=warning",
				"--controller.observability.alerts.KarpenterJobsStopped.summary=No jobs run" };
		App.SAMPLES.set(0);
		try (ConfigurableApplicationContext context = start(declaredOnly)) {
			assertThat(App.SAMPLES.get()).isZero();
		}
		String[] readsSampled = { "--controller.observability.lint.mode=off",
				"--controller.observability.alerts.KarpenterSampled.expr=karpenter_sampled > 1",
				"--controller.observability.alerts.KarpenterSampled.severity=warning",
				"--controller.observability.alerts.KarpenterSampled.summary=Sampled" };
		App.SAMPLES.set(0);
		try (ConfigurableApplicationContext context = start(readsSampled)) {
			assertThat(App.SAMPLES.get()).isOne();
		}
		App.SAMPLES.set(0);
		try (ConfigurableApplicationContext context = start("--controller.observability.lint.mode=fail",
				"--spring.autoconfigure.exclude=" + TaskExecutionAutoConfiguration.class.getName(),
				"--management.metrics.enable.karpenter.wait_ms=false")) {
			assertThat(App.SAMPLES.get()).isOne();
		}
	}

	@Test
	void failsOnAFindingOfADeclaredMetricThatHasNoSeriesYet() {
		assertThatExceptionOfType(MetricsLintFailedException.class)
			.isThrownBy(() -> start("--controller.observability.lint.mode=fail",
					"--management.metrics.enable.karpenter.wait_ms=false",
					"--controller.observability.metrics.renewals_ms.type=gauge",
					"--controller.observability.metrics.renewals_ms.help=Lease renewals."))
			.satisfies((ex) -> assertThat(ex.getFindings()).extracting(LintFinding::toString)
				.containsExactly("karpenter_renewals_ms metric names should not contain abbreviated units"));
	}

	// Boot's console pattern: "[<thread, padded to 15>] <logger> : <message>".
	private static boolean loggedOn(String thread, CapturedOutput output) {
		return Pattern.compile("\\[\\s*" + thread + "\\] \\S*StartupChecks\\s+: " + Pattern.quote(FINDING))
			.matcher(output.getOut())
			.find();
	}

	private static ConfigurableApplicationContext start(String... args) {
		return start(WebApplicationType.NONE, args);
	}

	private static ConfigurableApplicationContext start(WebApplicationType type, String... args) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(type);
		String[] all = new String[args.length + 1];
		all[0] = "--controller.observability.namespace=karpenter";
		System.arraycopy(args, 0, all, 1, args.length);
		return application.run(all);
	}

	// Polled on this thread: a poller thread of Awaitility's would count as left over.
	private static void assertNoThreadLeftRunning(Set<Thread> before) {
		await().pollInSameThread().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			Set<String> leftovers = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> !before.contains(thread) && thread.isAlive())
				.map(Thread::getName)
				.collect(Collectors.toSet());
			assertThat(leftovers).isEmpty();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

		/** How often {@code karpenter_sampled} was read, which only a scrape does. */
		static final AtomicInteger SAMPLES = new AtomicInteger();

		@Bean
		MeterBinder sampledMeter() {
			return (registry) -> Gauge.builder("karpenter.sampled", SAMPLES::incrementAndGet)
				.description("Times sampled.")
				.register(registry);
		}

		/** A meter that breaks a lint rule. */
		@Bean
		MeterBinder badMeter() {
			return (registry) -> Gauge.builder("karpenter.wait_ms", () -> 1).description("Wait.").register(registry);
		}

	}

}
