package dev.controllerobservability.example;

import java.nio.file.Path;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * controller-observability-bom pins the versions the project's own build uses: those of
 * the parent, and those the parent takes from Spring Boot's dependency management.
 * Without its Jackson and Netty imports, Maven would give a plain Java operator fabric8's
 * Jackson (2.20) and Vert.x's Netty (4.1), versions the modules are not built and tested
 * with.
 */
class BomVersionsTests {

	private static final Path ROOT = Path.of("../..");

	@Test
	void bomVersionsAreTheBuildsVersions() throws Exception {
		Map<String, String> parent = Map.of("controller-observability.version", projectVersion(ROOT.resolve("pom.xml")),
				"fabric8.version", property(ROOT.resolve("pom.xml"), "fabric8.version"), "java-operator-sdk.version",
				property(ROOT.resolve("pom.xml"), "java-operator-sdk.version"));
		String springBoot = property(ROOT.resolve("pom.xml"), "spring-boot.version");
		Path springBootBom = Path.of(System.getProperty("maven.repo.local"), "org", "springframework", "boot",
				"spring-boot-dependencies", springBoot, "spring-boot-dependencies-" + springBoot + ".pom");
		Path bom = ROOT.resolve("bom/pom.xml");
		parent.forEach((name, version) -> assertThat(property(bom, name)).as(name).isEqualTo(version));
		for (String name : new String[] { "micrometer.version", "prometheus-client.version", "jackson-2-bom.version",
				"netty.version" }) {
			assertThat(property(bom, name)).as(name).isEqualTo(property(springBootBom, name));
		}
	}

	@Test
	void bomHasNoParentThatWouldHandOnSpringBootsBom() throws Exception {
		Document bom = parse(ROOT.resolve("bom/pom.xml"));
		assertThat(bom.getDocumentElement().getElementsByTagName("parent").getLength()).isZero();
		assertThat(bom.getDocumentElement().getTextContent()).doesNotContain("org.springframework");
	}

	private static String projectVersion(Path pom) throws Exception {
		return child(parse(pom).getDocumentElement(), "version");
	}

	private static String property(Path pom, String name) {
		try {
			Element properties = (Element) parse(pom).getDocumentElement().getElementsByTagName("properties").item(0);
			return child(properties, name);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot read property " + name + " of " + pom, ex);
		}
	}

	private static String child(Element element, String name) {
		for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element child && child.getTagName().equals(name)) {
				return child.getTextContent().trim();
			}
		}
		throw new IllegalStateException(element.getTagName() + " has no " + name);
	}

	private static Document parse(Path pom) throws Exception {
		return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
	}

}
