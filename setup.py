"""Packaging for vlconcepts: every field is read from settings.ini (the nbdev 2 layout)."""
from configparser import ConfigParser
import setuptools

config = ConfigParser(delimiters=["="])
config.read("settings.ini", encoding="utf-8")
cfg = config["DEFAULT"]

requirements = cfg.get("requirements", "").split()
dev_requirements = cfg.get("dev_requirements", "").split()
console_scripts = cfg.get("console_scripts", "").split()

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    author=cfg["author"],
    author_email=cfg["author_email"],
    license="Apache Software License 2.0",
    url=cfg["git_url"],
    packages=setuptools.find_packages(include=["vlconcepts", "vlconcepts.*"]),
    include_package_data=True,
    package_data={"vlconcepts": ["assets/*", "assets/**/*", "paper_numbers/*", "paper_numbers/**/*"]},
    python_requires=">=" + cfg["min_python"],
    install_requires=requirements,
    extras_require={"dev": dev_requirements},
    entry_points={"console_scripts": console_scripts, "nbdev": [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False,
)
