// Word lists the demo corpus draws from. Realistic-looking, not real people or bills.

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Lisa', 'Daniel', 'Nancy',
  'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Margaret', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Andrew', 'Emily',
  'Paul', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Deborah',
  'Timothy', 'Stephanie', 'Ronald', 'Rebecca', 'Jason', 'Sharon', 'Edward', 'Laura', 'Jeffrey', 'Cynthia', 'Ryan', 'Amy',
  'Jacob', 'Kathleen', 'Gary', 'Angela', 'Nicholas', 'Shirley', 'Eric', 'Brenda', 'Jonathan', 'Emma', 'Stephen', 'Anna',
  'Larry', 'Pamela', 'Justin', 'Nicole', 'Scott', 'Samantha', 'Brandon', 'Katherine', 'Benjamin', 'Christine', 'Samuel', 'Helen',
  'Gregory', 'Debra', 'Alexander', 'Rachel', 'Patrick', 'Carolyn', 'Frank', 'Janet', 'Raymond', 'Maria', 'Jack', 'Catherine',
  'Dennis', 'Heather', 'Jerry', 'Diane', 'Tyler', 'Olivia', 'Aaron', 'Julie', 'Jose', 'Joyce', 'Adam', 'Victoria', 'Nathan',
  'Ruth', 'Henry', 'Virginia', 'Zachary', 'Lauren', 'Douglas', 'Kelly', 'Peter', 'Christina', 'Kyle', 'Joan', 'Noah', 'Evelyn',
  'Ethan', 'Judith', 'Jeremy', 'Andrea', 'Walter', 'Hannah', 'Christian', 'Megan', 'Keith', 'Cheryl', 'Roger', 'Jacqueline',
  'Terry', 'Martha', 'Austin', 'Madison', 'Sean', 'Teresa', 'Gerald', 'Gloria', 'Carl', 'Sara', 'Dylan', 'Janice', 'Harold',
  'Ann', 'Jordan', 'Kathryn', 'Jesse', 'Abigail', 'Bryan', 'Sophia', 'Lawrence', 'Frances', 'Arthur', 'Jean', 'Gabriel', 'Alice',
  'Bruce', 'Judy', 'Logan', 'Isabella', 'Billy', 'Julia', 'Joe', 'Grace', 'Alan', 'Amber', 'Juan', 'Denise', 'Elijah', 'Danielle',
  'Willie', 'Marilyn', 'Albert', 'Beverly', 'Wayne', 'Charlotte', 'Randy', 'Natalie', 'Mason', 'Theresa', 'Vincent', 'Diana',
  'Liam', 'Brittany', 'Roy', 'Doris', 'Bobby', 'Kayla', 'Caleb', 'Alexis', 'Bradley', 'Lori', 'Russell', 'Marie', 'Lucas', 'Tamika',
  'Luis', 'Rosa', 'Carlos', 'Lucia', 'Miguel', 'Ana', 'Hiroshi', 'Mei', 'Kwame', 'Aisha', 'Ravi', 'Priya', 'Tuan', 'Leilani',
];

export const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTW'.split('');

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez',
  'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White',
  'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres',
  'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales',
  'Murphy', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos',
  'Kim', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes',
  'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry',
  'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Gonzales', 'Fisher', 'Vasquez', 'Simmons', 'Romero',
  'Jordan', 'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes',
  'Bryant', 'Herrera', 'Gibson', 'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro', 'Marshall', 'Owens',
  'Harrison', 'Fernandez', 'McDonald', 'Woods', 'Washington', 'Kennedy', 'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb',
  'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez', 'Silva', 'Shaw', 'Snyder',
  'Mason', 'Dixon', 'Munoz', 'Hunt', 'Hicks', 'Holmes', 'Palmer', 'Wagner', 'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar',
  'Fox', 'Warren', 'Mills', 'Meyer', 'Rice', 'Schmidt', 'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens', 'Soto', 'Weaver',
  'Ryan', 'Gardner', 'Payne', 'Grant', 'Dunn', 'Kelley', 'Spencer', 'Hawkins', 'Arnold', 'Pierce', 'Vazquez', 'Hansen', 'Peters',
  'Santos', 'Hart', 'Bradley', 'Knight', 'Elliott', 'Cunningham', 'Duncan', 'Armstrong', 'Hudson', 'Carroll', 'Lane', 'Riley',
  'Andrews', 'Alvarado', 'Ray', 'Delgado', 'Berry', 'Perkins', 'Hoffman', 'Johnston', 'Matthews', 'Pena', 'Richards', 'Contreras',
  'Willis', 'Carpenter', 'Lawrence', 'Sandoval', 'Guerrero', 'George', 'Chapman', 'Rios', 'Estrada', 'Ortega', 'Watkins', 'Greene',
  'Nunez', 'Wheeler', 'Valdez', 'Harper', 'Burke', 'Larson', 'Santiago', 'Maldonado', 'Morrison', 'Franklin', 'Carlson', 'Austin',
  'Dominguez', 'Carr', 'Lawson', 'Jacobs', "O'Brien", 'Lynch', 'Singh', 'Vega', 'Bishop', 'Montgomery', 'Oliver', 'Kahale', 'Yazzie',
  'de la Cruz', 'Van Dyke', 'St. Clair', 'MacArthur', 'Okafor', 'Haugen', 'Lindqvist', 'Nakamura', 'Begay', 'Kowalski',
];

export const SUFFIXES = ['Jr.', 'Sr.', 'II', 'III'];

/** Raw subject labels as state portals publish them; folded into topics by src/topics/rules.ts. */
export const SUBJECTS = [
  'Education', 'K-12 Education', 'Higher Education', 'Taxation', 'Sales Tax', 'Property Tax', 'Income Tax', 'Health Care',
  'Medicaid', 'Mental Health', 'Public Health', 'Insurance', 'Health Insurance', 'Criminal Procedure', 'Crimes and Offenses',
  'Sentencing', 'Corrections', 'Law Enforcement', 'Courts', 'Civil Procedure', 'Motor Vehicles', 'Highways', 'Transportation',
  'Elections', 'Campaign Finance', 'Voter Registration', 'Environment', 'Water Quality', 'Air Quality', 'Energy',
  'Renewable Energy', 'Public Utilities', 'Agriculture', 'Animals', 'Fish and Game', 'Housing', 'Landlord and Tenant',
  'Labor and Employment', 'Minimum Wage', 'Workers Compensation', 'Unemployment Compensation', 'Children and Youth',
  'Child Welfare', 'Domestic Relations', 'Firearms', 'Veterans', 'Military Affairs', 'Local Government', 'Counties',
  'Municipalities', 'State Government', 'Public Employees', 'Ethics', 'Public Records', 'Appropriations', 'Budget',
  'Bonds', 'Economic Development', 'Small Business', 'Tourism', 'Consumer Protection', 'Banking', 'Securities',
  'Professional Licensing', 'Alcoholic Beverages', 'Cannabis', 'Controlled Substances', 'Gaming', 'Lottery', 'Sports',
  'Parks and Recreation', 'Forestry', 'Mining', 'Public Lands', 'Historic Preservation', 'Libraries', 'Museums',
  'Commemorations', 'Civil Rights', 'Disabilities', 'Seniors', 'Retirement Systems', 'Social Services', 'Public Assistance',
  'Immigration', 'Tribal Relations', 'Privacy', 'Cybersecurity', 'Broadband', 'Telecommunications', 'Artificial Intelligence',
  'Emergency Management', 'Fire Protection', 'Abortion', 'Maternal Health', 'Science and Research', 'Religion',
  'Water Resources', 'Flood Control', 'Real Property', 'Redistricting', 'Legislature', 'Governor', 'Special Districts',
];

/** Portal tags that are not subjects; a few states attach them to bills (must not reach /v1/subjects). */
export const INTERFACE_LABELS = ['Bill Text', 'First Reading', 'Fiscal Note', 'Introduced Version'];

/** Policy phrases for titles: "An Act relating to <phrase>". */
export const TITLE_PHRASES: Record<string, string[]> = {
  default: ['the administration of state programs', 'reporting requirements for state agencies', 'the powers and duties of the department'],
  Education: ['school district funding formulas', 'teacher certification requirements', 'literacy instruction in early grades', 'school safety plans'],
  Taxation: ['exemptions from the sales and use tax', 'the homestead property tax credit', 'the rate of the individual income tax', 'tax incentives for manufacturers'],
  'Health Care': ['coverage of telehealth services', 'prior authorization for prescription drugs', 'the licensure of nurse practitioners', 'hospital price transparency'],
  'Criminal Procedure': ['the expungement of criminal records', 'pretrial release conditions', 'the statute of limitations for certain offenses'],
  'Motor Vehicles': ['the registration of electric vehicles', 'distracted driving penalties', 'commercial driver licenses'],
  Elections: ['absentee ballot procedures', 'the canvass of election returns', 'voter list maintenance', 'campaign finance disclosure'],
  Environment: ['the reduction of single-use plastics', 'air quality permits', 'the cleanup of contaminated sites', 'greenhouse gas reporting'],
  Energy: ['net metering for customer-generators', 'the siting of transmission lines', 'utility rate cases'],
  Housing: ['residential eviction procedures', 'accessory dwelling units', 'affordable housing tax credits', 'security deposits'],
  'Labor and Employment': ['paid family and medical leave', 'the state minimum wage', 'noncompete agreements', 'workplace heat safety'],
  Firearms: ['the storage of firearms', 'background checks for firearm transfers', 'concealed carry permits'],
  Appropriations: ['appropriations for the operation of state government', 'supplemental appropriations for the current fiscal year'],
  Privacy: ['consumer data privacy', 'the use of biometric identifiers', 'data broker registration'],
  'Artificial Intelligence': ['the use of artificial intelligence by state agencies', 'disclosure of synthetic media in political advertising'],
  'Public Health': ['childhood immunization requirements', 'opioid overdose prevention', 'fluoridation of public water systems'],
  'Local Government': ['the annexation of territory by municipalities', 'county officer compensation', 'special district budgets'],
  Agriculture: ['the regulation of industrial hemp', 'farmland preservation', 'livestock disease control'],
  'Child Welfare': ['foster care placement standards', 'mandatory reporting of child abuse', 'kinship guardianship'],
  Cannabis: ['the regulation of adult-use cannabis', 'medical cannabis patient protections'],
};

export const COMMITTEE_NAMES = [
  'Appropriations', 'Judiciary', 'Education', 'Health and Human Services', 'Transportation', 'Ways and Means', 'Finance',
  'Agriculture', 'Natural Resources', 'Energy and Environment', 'Commerce and Labor', 'State Affairs', 'Local Government',
  'Veterans and Military Affairs', 'Rules', 'Housing', 'Public Safety', 'Insurance and Financial Institutions', 'Elections',
  'Government Oversight', 'Technology and Innovation', 'Economic Development',
];
