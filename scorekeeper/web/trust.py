"""Trusting this computer once on a phone, for HTTPS: the installation's certificate authority as a
download and a QR code, with short steps for Android and iOS (see ``tls.py``).

Reachable over plain HTTP and open without the password: a phone fetches the authority before it
can open the app over HTTPS, and a certificate is public. Only the certificate is served, never a key.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from cryptography.x509.oid import NameOID
from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import gettext

from scorekeeper.network import addresses, tls

bp = Blueprint("trust", __name__)

DOWNLOAD_NAME = "canasta-score-keeper-ca.crt"


def _https_url(port: int) -> str:
    """The app's address over HTTPS as a phone opens it: the host this page was asked by (a LAN
    address for a loopback one), on the HTTPS port."""
    home = urlsplit(addresses.reachable_url(url_for("games.index", _external=True)))
    host = home.hostname or "localhost"
    if ":" in host:
        host = f"[{host}]"
    return urlunsplit(("https", f"{host}:{port}" if port != 443 else host, "/", "", ""))


@bp.get("/trust")
def page():
    """The steps to trust this computer on a phone, with the certificate to download."""
    ca = tls.load_authority(tls.app_files(current_app))
    port = current_app.config.get("HTTPS_PORT")
    download = addresses.reachable_url(url_for("trust.certificate", _external=True))
    return render_template(
        "trust.html",
        ca=ca,
        common_name=ca.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value if ca is not None else "",
        fingerprint=tls.fingerprint(ca) if ca is not None else "",
        download=download,
        qr=addresses.qr_svg(download, gettext("QR code")) if ca is not None else "",
        file_name=DOWNLOAD_NAME,
        https_url=_https_url(int(port)) if port else None,
        secure=request.is_secure,
    )


@bp.get("/trust/ca.crt")
def certificate():
    """The authority's certificate (DER), as Android's and iOS's certificate installers take it."""
    der = tls.authority_der(tls.app_files(current_app))
    if der is None:
        return Response("HTTPS is not set up: bash scripts/start.sh --https\n", 404, mimetype="text/plain")
    response = Response(der, mimetype="application/x-x509-ca-cert")
    response.headers["Content-Disposition"] = f'attachment; filename="{DOWNLOAD_NAME}"'
    response.headers["Cache-Control"] = "no-cache"
    return response
