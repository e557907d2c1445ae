"""Server releases the scripted server can speak (`server_release` in a scenario's server config).

Each release sets what a client can see of the server before any SQL runs: the TNS version the
listener accepts, the TTC field version in the PRO compile-time capabilities (TNS_CCAP_FIELD_VERSION_*
in python-oracledb's constants: 11.2 = 6, 12.1 = 7, 12.2 = 8, 18.1 = 10, 19.1 = 12, 21.1 = 16,
23.4 = 24), the version number of the OAUTH reply and OVERSION, the banner, the password verifier
(12c PBKDF2 from 12.1 on, the 11g SHA-1 verifier before) and whether the PRO reply offers the
O7L_MR logon capability (compile caps [4] & 0x20; JDBC then derives its combo key with PBKDF2,
which needs the 12c verifier's CSK salt, so 11.2 does not offer it).

The TNS versions per release are our belief (public captures show 314 for 11.2, 315 for 12.1,
317-319 for 19c/23ai; python-oracledb gates large SDU at 315, the OOB check at 318 and
end-of-response at 319). Explicit keys in the scenario's server config win over the preset.
"""

from __future__ import annotations

RELEASES: dict[str, dict] = {
    "11.2": {"tns_version": 314, "field_version": 6, "db_version": [11, 2, 0, 4, 0],
             "verifier": "11g", "o7l_mr": False, "end_of_response": False,
             "banner": "Oracle Database 11g Enterprise Edition Release 11.2.0.4.0 - 64bit Production"},
    "12.1": {"tns_version": 315, "field_version": 7, "db_version": [12, 1, 0, 2, 0],
             "verifier": "12c", "end_of_response": False,
             "banner": "Oracle Database 12c Enterprise Edition Release 12.1.0.2.0 - 64bit Production"},
    "12.2": {"tns_version": 316, "field_version": 8, "db_version": [12, 2, 0, 1, 0],
             "verifier": "12c", "end_of_response": False,
             "banner": "Oracle Database 12c Enterprise Edition Release 12.2.0.1.0 - 64bit Production"},
    "18": {"tns_version": 317, "field_version": 10, "db_version": [18, 3, 0, 0, 0],
           "verifier": "12c", "end_of_response": False,
           "banner": "Oracle Database 18c Enterprise Edition Release 18.0.0.0.0 - Production\n"
                     "Version 18.3.0.0.0"},
    "19": {"tns_version": 317, "field_version": 12, "db_version": [19, 0, 0, 0, 0],
           "verifier": "12c", "end_of_response": False,
           "banner": "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production\n"
                     "Version 19.24.0.0.0"},
    "21": {"tns_version": 318, "field_version": 16, "db_version": [21, 0, 0, 0, 0],
           "verifier": "12c", "end_of_response": False,
           "banner": "Oracle Database 21c Express Edition Release 21.0.0.0.0 - Production\n"
                     "Version 21.3.0.0.0"},
    "23ai": {"tns_version": 319, "field_version": 24, "db_version": [23, 4, 0, 24, 5],
             "verifier": "12c", "end_of_response": True,
             "banner": "Oracle AI Database 26ai Free Release 23.26.2.0.0 - Develop, Learn, and Run "
                       "for Free\nVersion 23.26.2.0.0"},
}


def resolve(cfg: dict) -> dict:
    """The server config with the release preset filled in under the explicit keys."""
    rel = cfg.get("server_release")
    if rel is None:
        return dict(cfg)
    if rel not in RELEASES:
        raise ValueError(f"unknown server_release {rel!r} (known: {', '.join(RELEASES)})")
    out = dict(RELEASES[rel])
    out.update(cfg)
    return out
