// The openstates/people YAML the importer reads, as far as it reads it: a person file
// (data/<st>/legislature/*.yml, retired/*.yml) and a committee file (committees/*.yml). Every field
// is optional: the importer checks what it needs (id, name) and reads the rest with a default.
import type { FileParser } from '../read/parse-chunk.js';
import { yamlParserOf } from '../read/yaml.js';

export interface OpenStatesPerson {
  /** "ocd-person/<uuid>" */
  id?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  suffix?: string;
  /** every seat held; the current one has no end_date */
  roles?: OpenStatesRole[];
  /** party affiliations; the current one has no end_date */
  party?: OpenStatesParty[];
  /** ids in other systems (schemes bioguide, votesmart, fec, …); some identifiers are YAML numbers */
  other_identifiers?: { scheme?: string; identifier?: string | number }[];
  /** social media accounts (twitter, facebook, …) */
  ids?: Record<string, string>;
}

export interface OpenStatesRole {
  /** lower, upper, legislature (unicameral), or an executive office */
  type?: string;
  /** a district as the state names it ("12", "At-Large", "Chittenden-6-1") */
  district?: string;
  end_date?: string;
}

export interface OpenStatesParty {
  name?: string;
  end_date?: string;
}

export interface OpenStatesCommittee {
  /** "ocd-organization/<uuid>" */
  id?: string;
  name?: string;
  /** lower, upper or legislature (joint) */
  chamber?: string;
  /** committee or subcommittee */
  classification?: string;
  /** a subcommittee's committee id */
  parent?: string;
  /** a few members are listed by name only, without person_id */
  members?: { person_id?: string; role?: string }[];
  links?: { url?: string }[];
}

/** The YAML parser for each kind of file, the source's one typed boundary. */
export const personParser: FileParser<null, OpenStatesPerson> = yamlParserOf<OpenStatesPerson>();
export const committeeParser: FileParser<null, OpenStatesCommittee> = yamlParserOf<OpenStatesCommittee>();
