package dev.controllerobservability.autoconfigure.scrape;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.controllerobservability.exposition.ExposedSample;
import dev.controllerobservability.exposition.Exposition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 32 parallel scrapes of {@value ScaleScrapeApplication#SERIES} operation series, served
 * by a controller in a child JVM with a 1 GiB heap, on each backend: every response is
 * complete and the same (length and SHA-256 equal), one of them parsed holds every series
 * with its count, fewer renderings ran than scrapes were served, and the child's peak
 * heap is measured. The responses are streamed through a digest, never held here, but the
 * one parsed, which goes through a file.
 */
class ParallelScrapeScaleTests {

	private static final int SCRAPES = 32;

	private static final String END = "END of the child's output";

	private static final Pattern REPORT = Pattern.compile("REPORT peak=(\\d+) renderings=(\\d+) max=(\\d+)");

	@ParameterizedTest
	@ValueSource(strings = { "micrometer", "prometheus" })
	@Timeout(value = 15, unit = TimeUnit.MINUTES)
	void parallelScrapesShareRenderingsAndFitInOneGibibyte(String backend) throws Exception {
		Path kept = Files.createTempFile(Path.of("target"), "scale-scrape-" + backend, ".txt");
		Path log = Path.of("target", "scale-scrape-" + backend + ".log");
		Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
				"-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
				ScaleScrapeApplication.class.getName(), backend)
			.redirectErrorStream(true)
			.start();
		BlockingQueue<String> out = drain(child, log);
		try {
			PrintWriter in = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8);
			int port = Integer.parseInt(awaitLine(out, "PORT ").substring("PORT ".length()));
			in.println("reset");
			awaitLine(out, "RESET");
			List<Response> responses = scrapeInParallel(port, kept);
			in.println("report");
			Matcher report = REPORT.matcher(awaitLine(out, "REPORT "));
			assertThat(report.matches()).isTrue();
			long peak = Long.parseLong(report.group(1));
			long renderings = Long.parseLong(report.group(2));
			long max = Long.parseLong(report.group(3));
			System.out.printf("%s backend: %d scrapes of %d bytes, %d renderings, peak heap %d MiB of %d MiB%n",
					backend, SCRAPES, responses.get(0).length(), renderings, peak >> 20, max >> 20);
			assertThat(child.isAlive()).as("the child JVM is alive (see %s)", log).isTrue();
			assertThat(responses).allSatisfy((response) -> assertThat(response.status()).isEqualTo(200));
			assertThat(responses.stream().map(Response::length).collect(Collectors.toSet())).singleElement();
			assertThat(responses.stream().map(Response::digest).collect(Collectors.toSet())).singleElement();
			assertThat(renderings).isPositive().isLessThan(SCRAPES);
			assertThat(max).isLessThanOrEqualTo(1L << 30);
			assertEverySeries(Exposition.parse(Files.readString(kept)));
			in.println("exit");
		}
		finally {
			child.destroy();
			child.waitFor(1, TimeUnit.MINUTES);
			Files.deleteIfExists(kept);
		}
	}

	/** Every series of the operation, each with one observation. */
	private static void assertEverySeries(Exposition exposition) {
		List<ExposedSample> counts = exposition.samples()
			.stream()
			.filter((sample) -> sample.name().equals("scale_reconcile_duration_seconds_count"))
			.toList();
		assertThat(counts).hasSize(ScaleScrapeApplication.SERIES)
			.allSatisfy((sample) -> assertThat(sample.value()).isEqualTo(1.0));
		Set<String> provisioners = counts.stream()
			.map((sample) -> sample.labels().get("provisioner"))
			.collect(Collectors.toSet());
		assertThat(provisioners).hasSize(ScaleScrapeApplication.SERIES).contains("provisioner-0", "provisioner-49999");
		assertThat(exposition.samples()
			.stream()
			.filter((sample) -> sample.name().equals("scale_reconcile_duration_seconds_bucket")
					&& sample.labels().get("le").equals("+Inf"))
			.filter((sample) -> sample.value() == 1.0)
			.count()).isEqualTo(ScaleScrapeApplication.SERIES);
		assertThat(exposition.samples()
			.stream()
			.filter((sample) -> sample.name().equals("scale_reconcile_in_flight"))
			.filter((sample) -> sample.value() == 0.0)
			.count()).isEqualTo(ScaleScrapeApplication.SERIES);
		assertThat(exposition.samples())
			.anyMatch((sample) -> sample.name().equals("scale_observability_scrape_errors_total")
					&& sample.labels().equals(Map.of("reason", "too_large")) && sample.value() == 0.0);
	}

	private static List<Response> scrapeInParallel(int port, Path kept) throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		ExecutorService executor = Executors.newFixedThreadPool(SCRAPES);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Response>> futures = new ArrayList<>();
			for (int i = 0; i < SCRAPES; i++) {
				boolean keep = i == 0;
				futures.add(executor.submit(() -> {
					start.await();
					HttpResponse<InputStream> response = client
						.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/prometheus"))
							.header("Accept", "text/plain;version=0.0.4")
							.build(), HttpResponse.BodyHandlers.ofInputStream());
					return digest(response, keep ? kept : null);
				}));
			}
			start.countDown();
			List<Response> responses = new ArrayList<>();
			for (Future<Response> future : futures) {
				responses.add(future.get());
			}
			return responses;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static Response digest(HttpResponse<InputStream> response, Path kept) throws Exception {
		MessageDigest digest = MessageDigest.getInstance("SHA-256");
		byte[] buffer = new byte[64 * 1024];
		long length = 0;
		try (InputStream body = response.body();
				OutputStream copy = (kept != null) ? Files.newOutputStream(kept) : OutputStream.nullOutputStream()) {
			for (int read = body.read(buffer); read >= 0; read = body.read(buffer)) {
				digest.update(buffer, 0, read);
				copy.write(buffer, 0, read);
				length += read;
			}
		}
		return new Response(response.statusCode(), length, HexFormat.of().formatHex(digest.digest()));
	}

	/**
	 * Copies the child's output to its log, never letting a full pipe block it, and
	 * queues the lines that answer a command.
	 */
	private static BlockingQueue<String> drain(Process child, Path log) {
		BlockingQueue<String> answers = new LinkedBlockingQueue<>();
		Thread drainer = new Thread(() -> {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
					PrintWriter copy = new PrintWriter(Files.newBufferedWriter(log), true)) {
				for (String line = lines.readLine(); line != null; line = lines.readLine()) {
					copy.println(line);
					if (line.matches("(PORT|RESET|REPORT)\\b.*")) {
						answers.add(line);
					}
				}
			}
			catch (IOException ex) {
				// The child is gone; the end marker below says so.
			}
			answers.add(END);
		}, "scale-child-output");
		drainer.setDaemon(true);
		drainer.start();
		return answers;
	}

	private static String awaitLine(BlockingQueue<String> out, String prefix) throws InterruptedException {
		String line = out.take();
		if (!line.startsWith(prefix)) {
			throw new IllegalStateException("The child JVM answered " + line + " instead of " + prefix.strip());
		}
		return line;
	}

	private record Response(int status, long length, String digest) {
	}

}
